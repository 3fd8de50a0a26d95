import TestSupport
import Testing

@testable import RunLoopKit

/// Rule C-X2: a sleep on a loop's clock is a one-shot timer of the loop in chosen modes, with
/// tolerance; on a virtual clock sleepers resume in deadline order, the same way every run.
@Suite("Sleeping on a loop's clock (C-X2)")
struct SleepTests {
    @Test("C-X2/C-T3: sleepers resume in deadline order, equal deadlines in the order they slept")
    func deadlineOrder() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let handle = loop.handle
        for (name, delay) in [("a", 30), ("b", 10), ("c", 10), ("d", 20)] {
            Task(executorPreference: handle.taskExecutor) {
                try await handle.sleep(for: .milliseconds(delay))
                log.append("\(name) at \(handle.timeSource.now().milliseconds)")
            }
        }
        #expect(loop.run(mode: .default, until: ms(100)) == .finished)
        #expect(log.entries == ["b at 10", "c at 10", "d at 20", "a at 30"])
    }

    @Test("C-X2: a task that sleeps again each time it wakes runs the same way every run, with no yields")
    func repeatedSleepsRepeatExactly() {
        func transcript() -> [String] {
            let (loop, clock) = makeVirtualLoop()
            let log = Transcript()
            let handle = loop.handle
            for (name, interval) in [("fast", 7), ("slow", 10)] {
                Task(executorPreference: handle.taskExecutor) {
                    for _ in 0..<4 {
                        try await handle.sleep(for: .milliseconds(interval))
                        log.append("\(name) at \(handle.timeSource.now().milliseconds)")
                        clock.busy(.milliseconds(2))
                    }
                }
            }
            loop.run(mode: .default, until: ms(100))
            return log.entries
        }
        let first = transcript()
        #expect(
            first == [
                "fast at 7", "slow at 10", "fast at 16", "slow at 22", "fast at 25", "slow at 34", "fast at 36",
                "slow at 46",
            ])
        #expect(transcript() == first)
    }

    @Test("C-X2/M2: a default-mode sleep waits while the loop tracks; a common-mode sleep goes on")
    func defaultModeSleepPausesWhileTracking() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let log = Transcript()
        let handle = loop.handle
        Task(executorPreference: handle.taskExecutor) {
            try await handle.sleep(for: .milliseconds(10), inModes: [.default])
            log.append("default sleeper at \(handle.timeSource.now().milliseconds)")
        }
        Task(executorPreference: handle.taskExecutor) {
            try await handle.sleep(for: .milliseconds(10))
            log.append("common sleeper at \(handle.timeSource.now().milliseconds)")
        }
        loop.run(mode: .default, until: .zero)
        addTranscriptTimer("tracking ends", to: loop, log: log, at: 50, mode: .tracking)
        loop.run(mode: .tracking, until: ms(50))
        #expect(log.entries == ["common sleeper at 10", "tracking ends at 50"])
        loop.run(mode: .default, until: ms(60))
        #expect(log.entries == ["common sleeper at 10", "tracking ends at 50", "default sleeper at 50"])
    }

    @Test("C-X2: cancelling a sleeper resumes it at once with CancellationError and leaves no timer")
    func cancellationResumesAtOnce() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let handle = loop.handle
        let sleeper = Task(executorPreference: handle.taskExecutor) {
            do {
                try await handle.sleep(for: .seconds(100))
                log.append("woke")
            } catch is CancellationError {
                log.append("cancelled at \(handle.timeSource.now().milliseconds)")
            }
        }
        let canceller = Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in sleeper.cancel() }
        loop.add(canceller, forMode: .default)
        #expect(loop.run(mode: .default, until: ms(200)) == .finished)
        #expect(log.entries == ["cancelled at 10"])
        #expect(loop.nextFireDate(forMode: .default) == nil)
    }

    @Test("C-X2: a task cancelled before it sleeps throws at once and schedules nothing")
    func cancelledBeforeSleeping() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let handle = loop.handle
        let task = Task(executorPreference: handle.taskExecutor) {
            do {
                try await handle.sleep(for: .seconds(1))
            } catch is CancellationError {
                log.append("cancelled")
            }
        }
        task.cancel()
        loop.run(mode: .default, until: .zero)
        #expect(log.entries == ["cancelled"])
        #expect(loop.nextFireDate(forMode: .default) == nil)
    }

    @Test("C-X2/C-T9: a sleep's tolerance lets one wake-up serve it and a later timer")
    func toleranceSharesAWakeUp() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let handle = loop.handle
        Task(executorPreference: handle.taskExecutor) {
            try await handle.sleep(for: .milliseconds(10), tolerance: .milliseconds(5))
            log.append("sleeper at \(handle.timeSource.now().milliseconds)")
        }
        loop.run(mode: .default, until: .zero)
        addTranscriptTimer("timer", to: loop, log: log, at: 14)
        loop.run(mode: .default, until: ms(50))
        #expect(log.entries == ["timer at 14", "sleeper at 14"])
    }

    @Test("C-X2: on a TimeControl, slow motion stretches a sleep and a paused clock holds it until an advance")
    func timeControlsApplyToSleepers() {
        let base = VirtualClock()
        let time = TimeControl(base: .virtual(base))
        let loop = RunLoop(timeSource: .controlled(time))
        let log = Transcript()
        let handle = loop.handle
        time.rate = (1, 4)
        Task(executorPreference: handle.taskExecutor) {
            try await handle.sleep(for: .milliseconds(10))
            log.append("slow: controlled \(time.now().milliseconds), base \(base.now.milliseconds)")
            try await handle.clock(.uptime).sleep(for: .milliseconds(10))
            log.append("stepped: controlled \(time.now().milliseconds), base \(base.now.milliseconds)")
        }
        loop.run(mode: .default, until: ms(11))
        #expect(log.entries == ["slow: controlled 10, base 40"])
        time.isPaused = true
        loop.run(mode: .default, until: .zero)
        #expect(log.entries == ["slow: controlled 10, base 40"])
        #expect(loop.nextFireDate(forMode: .default) == ms(20))
        time.advance(to: ms(20))
        loop.run(mode: .default, until: .zero)
        #expect(log.entries == ["slow: controlled 10, base 40", "stepped: controlled 20, base 44"])
    }

    @Test("C-X2: VirtualClock and a loop's continuous clock are Swift Clocks whose sleeps the loop serves")
    func clocksAreSwiftClocks() {
        let (loop, clock) = makeVirtualLoop()
        let log = Transcript()
        let continuous = loop.handle.clock(.continuous)
        Task(executorPreference: loop.taskExecutor) {
            let elapsed = try await clock.measure { try await clock.sleep(for: .milliseconds(15)) }
            log.append("virtual slept \(elapsed)")
            clock.sleepMachine(for: .seconds(60))
            let start = continuous.now
            try await continuous.sleep(until: start + .milliseconds(5))
            log.append("continuous slept \(start.duration(to: continuous.now))")
        }
        loop.run(mode: .default, until: ms(100))
        #expect(log.entries == ["virtual slept 0.015 seconds", "continuous slept 0.005 seconds"])
    }

    @Test("Instants convert to and from the standard library's suspending and continuous clocks")
    func conversions() {
        let uptime = TimeSource.system.now(.uptime) + .seconds(3)
        let back = Instant(SuspendingClock.Instant(uptime))
        #expect(abs(back.duration(to: uptime).nanoseconds) < 50_000_000)
        let continuous = Instant(ContinuousClock.now + .seconds(2))
        #expect(abs(continuous.duration(to: TimeSource.system.now(.continuous) + .seconds(2)).nanoseconds) < 50_000_000)
    }

    @Test(
        "A task on another thread sleeps on a loop running on its own thread (real clock, bounded wait)",
        .timeLimit(.minutes(1)))
    func sleepFromAnotherThread() async throws {
        let log = Transcript()
        let handle: RunLoop.Handle = await withCheckedContinuation { continuation in
            spawnThread {
                let loop = RunLoop()
                loop.add(RunLoop.Source {}, forMode: .default)
                continuation.resume(returning: loop.handle)
                log.append("\(loop.run(mode: .default, until: .distantFuture))")
            }
        }
        let start = TimeSource.system.now()
        try await handle.sleep(for: .milliseconds(5))
        #expect(TimeSource.system.now() >= start + .milliseconds(5))
        #expect(await handle.submit { loop in loop.currentMode } == .default)
        handle.stop()
    }
}
