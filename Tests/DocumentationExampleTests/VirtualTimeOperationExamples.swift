import Glibc
import RunLoopKit
import RunLoopKitTesting
import Testing

// The examples of the virtual-time operations and their errors (``VirtualTimeError``, the Testing
// Time article), each checked.

@Suite("The virtual-time operations, as documented")
struct VirtualTimeOperationExamples {
    @Test func advanceAndJump() throws {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        var fires: [Instant] = []
        let beat = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true, on: loop) { _ in
            fires.append(loop.now)
        }
        try loop.advance(by: .seconds(3))  // fires at 1 s, 2 s and 3 s
        try loop.jump(by: .seconds(60))  // fires once, at 63 s; next at 64 s
        beat.invalidate()
        #expect(fires == [1, 2, 3, 63].map { Instant.zero + .seconds($0) })
    }

    @Test func backgroundHeartbeatLetsTheModeBeIdle() throws {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        var beats = 0
        let heartbeat = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true, on: loop) { _ in beats += 1 }
        heartbeat.isBackground = true
        var done = false
        Timer.scheduledTimer(withInterval: .milliseconds(5_500), repeats: false, on: loop) { _ in done = true }
        try loop.runUntilIdle()  // idle at 5.5 s, after five beats
        heartbeat.invalidate()
        #expect(beats == 5 && done && loop.now == Instant.zero + .milliseconds(5_500))
    }

    @Test func countSleepers() throws {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        let handle = loop.handle
        Task(executorPreference: handle.taskExecutor) {
            try await handle.sleep(for: .seconds(5))
        }
        try loop.runCurrent()
        let sleepers = loop.registrationCount(of: .sleeper, inMode: .default)  // 1
        #expect(sleepers == 1)
        try loop.runUntilIdle()
    }

    @Test func notIdleErrorNamesTheTimer() {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        let line = #line + 1
        let beat = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true, on: loop) { _ in }
        do {
            try loop.runUntilIdle(limit: 100)
        } catch {
            print(error)  // mode default was still not idle after 100 deadlines, at 100.000s, then the timer
        }
        let error = #expect(throws: VirtualTimeError.self) { try loop.runUntilIdle(limit: 1) }
        #expect(
            error?.description
                == "mode default was still not idle after 1 deadlines, at 101.000s\n"
                + "  timer due at 102.000s made at DocumentationExampleTests/VirtualTimeOperationExamples.swift:\(line) in default"
        )
        beat.invalidate()
    }
}

@Suite("Runaway limits, as documented")
struct RunawayLimitsExamples {
    @Test func limitsAreTheLoops() {
        do {
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            loop.runawayLimits = RunLoop.RunawayLimits(jobs: 1_000_000)  // a test that starts many tasks at once
            #expect(loop.runawayLimits == RunLoop.RunawayLimits(jobs: 1_000_000, passes: 10_000))
        }
        do {
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            loop.runawayLimits = RunLoop.RunawayLimits(jobs: 2_000_000, passes: 10_000)
            #expect(loop.runawayLimits.jobs == 2_000_000)
        }
    }
}

/// The example of ``VirtualTime/test(on:timeLimit:checkingLeaks:resolution:_:)``, in a child process: the
/// test's scope takes over the runtime's global executor.
private func ninetySecondsOfSleep() throws -> Instant {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let handle = loop.handle
    let slept = try VirtualTime.test(on: loop, resolution: .seconds(1)) {
        try await Task.sleep(for: .seconds(90))
        return handle.timeSource.now()
    }
    // slept == Instant.zero + .seconds(90)
    return slept
}

@Suite("VirtualTime.test, as documented")
struct VirtualTimeTestExamples {
    @Test func ninetySecondsAtOnce() async {
        await #expect(processExitsWith: .success) {
            exit(try ninetySecondsOfSleep() == Instant.zero + .seconds(90) ? 0 : 1)
        }
    }
}
