import Testing

@testable import RunLoopKit

/// Rule C-X2 for actors bound to a loop: a sleep on one of the loop's clocks, called on the clock's
/// own type, reads its deadline and adds its timer on the loop's thread, even in a task with no
/// executor preference, so that a run on a virtual clock repeats exactly.
@Suite("Sleeping on a loop's clocks from an actor on the loop (C-X2)")
struct ClockSleepIsolationTests {
    /// The clocks an actor on the loop sleeps on.
    enum SleepingClock: String, CaseIterable, CustomTestStringConvertible {
        case handle, virtualClock, loopClock, timeControl
        var testDescription: String { rawValue }
    }

    @Test(
        "C-X2: an actor on the loop, in a task with no executor preference, wakes from each sleep at its exact time",
        arguments: SleepingClock.allCases)
    func actorSleepsAtExactTimes(_ clock: SleepingClock) async {
        let runs = Transcript()
        // The loop runs on a thread of its own: the task starts on the global executor, which the
        // test must not hold while it waits for the task's first job.
        await runOnDedicatedThread {
            for _ in 0..<20 {
                let base = VirtualClock()
                let time = TimeControl(base: .virtual(base))
                let loop = RunLoop(clock: clock == .timeControl ? .controlled(time) : .virtual(base))
                loop.add(RunLoop.Source {}, forMode: .default)
                let log = Transcript()
                let sleeper = ClockSleeper(handle: loop.handle, log: log)
                let handle = loop.handle
                let loopClock = handle.clock()
                Task {
                    switch clock {
                    case .handle: try await sleeper.sleepThrice(on: handle)
                    case .virtualClock: try await sleeper.sleepThrice(on: base)
                    case .loopClock: try await sleeper.sleepThrice(on: loopClock)
                    case .timeControl: try await sleeper.sleepThrice(on: time)
                    }
                }
                // The task hops from the global executor to the actor: its first job reaches the loop.
                let arrived = waitForWakeUp(of: loop)
                let result = loop.run(mode: .default, until: ms(100))
                runs.append("\(arrived), \(result): \(log.entries.joined(separator: ", "))")
            }
        }
        let expected = "true, timedOut: woke at 10 on loop, woke at 20 on loop, woke at 30 on loop"
        #expect(runs.entries == Array(repeating: expected, count: 20))
    }

    @Test("C-X3: an actor on the loop, in a task with no executor preference, takes each tick when it fires")
    func actorTakesTicksWhenTheyFire() async {
        let runs = Transcript()
        await runOnDedicatedThread {
            for _ in 0..<20 {
                let (loop, _) = makeVirtualLoop()
                loop.add(RunLoop.Source {}, forMode: .default)
                let log = Transcript()
                let sleeper = ClockSleeper(handle: loop.handle, log: log)
                let ticks = loop.handle.ticks(every: .milliseconds(10))
                Task { await sleeper.takeThree(of: ticks) }
                let arrived = waitForWakeUp(of: loop)
                let result = loop.run(mode: .default, until: ms(100))
                runs.append("\(arrived), \(result): \(log.entries.joined(separator: ", "))")
            }
        }
        let expected = "true, timedOut: woke at 10 on loop, woke at 20 on loop, woke at 30 on loop"
        #expect(runs.entries == Array(repeating: expected, count: 20))
    }

    @Test("C-X2: through a generic Clock, an actor's sleeps stay exact when its task prefers the loop's executor")
    func genericClockSleepsWithTheLoopsTaskExecutor() {
        let (loop, clock) = makeVirtualLoop()
        let log = Transcript()
        let sleeper = ClockSleeper(handle: loop.handle, log: log)
        Task(executorPreference: loop.taskExecutor) { try await sleeper.sleepThrice(onAny: clock) }
        #expect(loop.run(mode: .default, until: ms(100)) == .finished)
        #expect(log.entries == ["woke at 10 on loop", "woke at 20 on loop", "woke at 30 on loop"])
    }
}

/// An actor bound to a loop's executor that sleeps 10 ms three times on a clock and notes each
/// wake-up's time and thread.
actor ClockSleeper {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    private let handle: RunLoop.Handle
    private let log: Transcript

    init(handle: RunLoop.Handle, log: Transcript) {
        unownedExecutor = handle.executor.asUnownedSerialExecutor()
        self.handle = handle
        self.log = log
    }

    func sleepThrice(on handle: RunLoop.Handle) async throws {
        for _ in 0..<3 {
            try await handle.sleep(for: .milliseconds(10))
            woke()
        }
    }

    func sleepThrice(on clock: VirtualClock) async throws {
        for _ in 0..<3 {
            try await clock.sleep(for: .milliseconds(10))
            woke()
        }
    }

    func sleepThrice(on clock: LoopClock) async throws {
        for _ in 0..<3 {
            try await clock.sleep(for: .milliseconds(10))
            woke()
        }
    }

    func sleepThrice(on clock: TimeControl) async throws {
        for _ in 0..<3 {
            try await clock.sleep(for: .milliseconds(10))
            woke()
        }
    }

    /// Sleeps through the `Clock` protocol, as generic code does.
    func sleepThrice(onAny clock: some Clock<Duration>) async throws {
        for _ in 0..<3 {
            try await clock.sleep(for: .milliseconds(10))
            woke()
        }
    }

    /// Takes three ticks, each in the actor's isolation.
    func takeThree(of ticks: TimeSequence<RunLoop.Tick>) async {
        var count = 0
        for await _ in ticks {
            woke()
            count += 1
            if count == 3 { break }
        }
    }

    private func woke() {
        log.append("woke at \(handle.clock.now().milliseconds) \(handle.isOnLoopThread ? "on loop" : "elsewhere")")
    }
}
