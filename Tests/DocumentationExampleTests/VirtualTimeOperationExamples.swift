import Glibc
import RunLoopKit
import Testing

// The examples of the virtual-time operations and their errors (``VirtualTimeError``, the Testing
// Time article), each checked.

@Suite("The virtual-time operations, as documented")
struct VirtualTimeOperationExamples {
    @Test func notIdleErrorNamesTheTimer() {
        let loop = RunLoop(clock: .virtual(VirtualClock()))
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
                + "  timer due at 102.000s made at DocumentationExampleTests/VirtualTimeOperationExamples.swift:12 in default"
        )
        beat.invalidate()
    }
}

/// The example of ``VirtualTime/test(on:timeLimit:checkingLeaks:_:)``, in a child process: the
/// test's scope takes over the runtime's global executor.
private func ninetySecondsOfSleep() throws -> Instant {
    let loop = RunLoop(clock: .virtual(VirtualClock()))
    let handle = loop.handle
    let slept = try VirtualTime.test(on: loop) {
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
