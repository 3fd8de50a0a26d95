import Glibc
import RunLoopKitTesting
import TestSupport
import Testing

@testable import RunLoopKit

/// The operations a test drives a loop on a virtual clock with: advance, runCurrent, runUntilIdle,
/// jump and autojump.
@Suite("Virtual time: advance, runCurrent, runUntilIdle, jump, autojump")
struct VirtualTimeOperationsTests {
    /// A one-shot timer at `at` ms that appends "name at <ms>" to `log` with the loop's time in its callout.
    @discardableResult
    private func oneShot(_ name: String, at: Int64, on loop: RunLoop, into log: Transcript) -> Timer {
        let handle = loop.handle
        let timer = Timer(fireAt: ms(at), interval: .zero, repeats: false) { _ in
            log.append("\(name) at \(handle.timeSource.now().milliseconds)")
        }
        loop.add(timer, forMode: .default)
        return timer
    }

    /// A task on `loop` that sleeps until `at` ms and appends "name at <ms>" to `log`.
    private func sleeper(_ name: String, until at: Int64, on loop: RunLoop, into log: Transcript) {
        let handle = loop.handle
        Task(executorPreference: handle.taskExecutor) {
            try await handle.sleep(until: ms(at))
            log.append("\(name) at \(handle.timeSource.now().milliseconds)")
        }
    }

    @Test("advance(by:): callouts in deadline order, now equal to each deadline in its callout")
    func advanceStopsAtEveryDeadline() throws {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        oneShot("three", at: 3_000, on: loop, into: log)
        oneShot("one", at: 1_000, on: loop, into: log)
        oneShot("two", at: 2_000, on: loop, into: log)
        let beat = Timer(fireAt: ms(700), interval: .milliseconds(700), repeats: true) { _ in
            log.append("beat at \(loop.now.milliseconds)")
        }
        loop.add(beat, forMode: .default)
        sleeper("sleeper", until: 1_500, on: loop, into: log)
        try loop.advance(by: .milliseconds(2_500))
        #expect(
            log.entries == [
                "beat at 700", "one at 1000", "beat at 1400", "sleeper at 1500", "two at 2000", "beat at 2100",
            ])
        #expect(loop.now == ms(2_500))
        try loop.advance(to: ms(3_000))
        #expect(log.entries.suffix(2) == ["beat at 2800", "three at 3000"])
        beat.invalidate()
    }

    @Test("Equal deadlines fire in the order they were added (C-T3); sleepers resume after the pass's timers")
    func equalDeadlinesFIFO() throws {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        oneShot("a", at: 1_000, on: loop, into: log)
        sleeper("first sleeper", until: 1_000, on: loop, into: log)
        try loop.runCurrent()
        sleeper("second sleeper", until: 1_000, on: loop, into: log)
        oneShot("b", at: 1_000, on: loop, into: log)
        oneShot("c", at: 1_000, on: loop, into: log)
        try loop.advance(by: .seconds(1))
        #expect(
            log.entries == [
                "a at 1000", "b at 1000", "c at 1000", "first sleeper at 1000", "second sleeper at 1000",
            ])
    }

    @Test("runCurrent(): what is due now runs, blocks and jobs included; time does not move")
    func runCurrentDoesNotAdvance() throws {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        oneShot("due", at: 0, on: loop, into: log)
        oneShot("later", at: 1, on: loop, into: log)
        loop.perform { log.append("block") }
        Task(executorPreference: loop.taskExecutor) { log.append("job") }
        try loop.runCurrent()
        #expect(Set(log.entries) == ["due at 0", "block", "job"])
        #expect(loop.now == .zero)
        #expect(loop.nextFireDate(forMode: .default) == ms(1))
    }

    @Test("runUntilIdle(): jumps from deadline to deadline until nothing is scheduled")
    func runUntilIdleDrains() throws {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let first = Timer(fireAt: ms(1_000), interval: .zero, repeats: false) { _ in
            recorder.record("first")
            let second = Timer(fireAt: loop.now + .seconds(3_600), interval: .zero, repeats: false) { _ in
                recorder.record("an hour later")
            }
            loop.add(second, forMode: .default)
        }
        loop.add(first, forMode: .default)
        try loop.runUntilIdle()
        #expect(recorder.events == ["first", "an hour later"])
        #expect(recorder.times == [1_000, 3_601_000])
        #expect(loop.nextFireDate(forMode: .default) == nil)
    }

    @Test("runUntilIdle(limit:): a repeating timer never lets the mode be idle; the error lists it")
    func runUntilIdleLimit() throws {
        let (loop, _) = makeVirtualLoop()
        let beat = Timer(fireAt: ms(10), interval: .milliseconds(10), repeats: true) { _ in }
        loop.add(beat, forMode: .default)
        let error = #expect(throws: VirtualTimeError.self) { try loop.runUntilIdle(limit: 50) }
        #expect(error?.kind == .notIdle)
        #expect(error?.registrations.map(\.kind) == [.timer])
        #expect(loop.now == ms(500))
        beat.invalidate()
    }

    @Test("runUntilIdle(): a background heartbeat fires on the way and does not keep the mode from idle")
    func runUntilIdleIgnoresABackgroundHeartbeat() throws {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let heartbeat = Timer(fireAt: ms(1_000), interval: .seconds(1), repeats: true) { _ in
            log.append("beat at \(loop.now.milliseconds)")
        }
        heartbeat.isBackground = true
        loop.add(heartbeat, forMode: .default)
        oneShot("done", at: 5_500, on: loop, into: log)
        try loop.runUntilIdle(limit: 100)  // without the mark: notIdle after 100 deadlines
        #expect(
            log.entries == [
                "beat at 1000", "beat at 2000", "beat at 3000", "beat at 4000", "beat at 5000", "done at 5500",
            ])
        #expect(loop.now == ms(5_500))
        let left = loop.registrations(inMode: .default)
        #expect(left.map(\.isBackground) == [true])
        #expect(left.first?.description.hasPrefix("background timer due at 6.000s made at ") == true)
        try loop.runUntilIdle()  // only the heartbeat is left: idle at once, time stands still
        #expect(loop.now == ms(5_500))
        heartbeat.invalidate()
    }

    @Test("jump(by:): each timer fires at most once, as after a system sleep; missed slots are skipped")
    func jumpFiresEachTimerOnce() throws {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let beat = Timer(fireAt: ms(1_000), interval: .seconds(1), repeats: true) { _ in
            log.append("beat at \(loop.now.milliseconds)")
        }
        loop.add(beat, forMode: .default)
        oneShot("two", at: 2_000, on: loop, into: log)
        oneShot("five", at: 5_000, on: loop, into: log)
        try loop.jump(by: .milliseconds(10_500))
        #expect(log.entries == ["beat at 10500", "two at 10500", "five at 10500"])
        #expect(beat.fireDate == ms(11_000))
        beat.invalidate()
    }

    @Test("The operations refuse a loop on the system clock, saying how to make a virtual one")
    func systemClockRefused() {
        let loop = RunLoop()
        let error = #expect(throws: VirtualTimeError.self) { try loop.advance(by: .seconds(1)) }
        #expect(error?.kind == .notVirtual)
        #expect(error?.message.contains("RunLoop(timeSource: .virtual(VirtualClock()))") == true)
    }

    /// Runs `loop` until `limit` with a helper thread that, once the loop is about to wait, asks it
    /// to stop from outside; returns the result and whether the timer at 1 s fired.
    private func runUntilStoppedFromOutside(_ loop: RunLoop) -> (RunLoop.RunResult, Bool) {
        var fired = false
        let timer = Timer(fireAt: ms(1_000), interval: .zero, repeats: false) { _ in fired = true }
        loop.add(timer, forMode: .default)
        let handle = loop.handle
        var started = false
        let observer = RunLoop.Observer(activities: .beforeWaiting) { _, _ in
            guard !started else { return }
            started = true
            spawnThread { handle.stop() }
        }
        loop.add(observer, forMode: .default)
        defer { observer.invalidate() }
        let result = loop.run(mode: .default, until: ms(5_000))
        timer.invalidate()
        return (result, fired)
    }

    @Test("Autojump off: a run waits for input instead of jumping; time moves only when the test moves it")
    func autojumpOff() throws {
        let (loop, _) = makeVirtualLoop()
        let (result, fired) = loop.withAutojumpSuspended { runUntilStoppedFromOutside(loop) }
        #expect(result == .stopped)
        #expect(!fired)
        #expect(loop.now == .zero)
        #expect(loop.autojump == .immediately, "the scope restores the setting")
    }

    @Test("Autojump after a threshold: input within the threshold of real time keeps time where it is")
    func autojumpThresholdWaitsForInput() {
        let (loop, _) = makeVirtualLoop()
        loop.autojump = .after(.seconds(60))
        let (result, fired) = runUntilStoppedFromOutside(loop)
        #expect(result == .stopped)
        #expect(!fired)
        #expect(loop.now == .zero)
    }

    @Test("Autojump after a threshold: with no input the loop jumps once the threshold has passed")
    func autojumpThresholdJumps() {
        let (loop, _) = makeVirtualLoop()
        loop.autojump = .after(.milliseconds(1))
        let log = Transcript()
        oneShot("fired", at: 1_000, on: loop, into: log)
        #expect(loop.run(mode: .default, until: ms(5_000)) == .finished)
        #expect(log.entries == ["fired at 1000"])
    }

    /// A one-shot dispatch timer on each clock, due an hour from now on its own clock, that
    /// appends "<clock> at <uptime ms>" to `log`.
    private func dispatchTimers(on loop: RunLoop, into log: Transcript) -> [DispatchTimer] {
        ClockKind.allCases.map { kind in
            let timer = DispatchTimer(clock: kind, runLoop: loop) { _ in
                log.append("\(kind) at \(loop.now.milliseconds)")
            }
            timer.schedule(deadline: .after(.seconds(3_600)))
            timer.resume()
            return timer
        }
    }

    @Test("setWall(to:): only wall time moves, either way; a wall dispatch timer re-arms on it")
    func setWallMovesWallOnly() throws {
        let (loop, clock) = makeVirtualLoop()
        let log = Transcript()
        oneShot("timer", at: 3_600_000, on: loop, into: log)
        let timers = dispatchTimers(on: loop, into: log)
        let wallStart = clock.now(.wall)
        try loop.setWall(to: wallStart - .seconds(600))
        try loop.advance(by: .seconds(3_600))
        #expect(log.entries == ["timer at 3600000", "uptime at 3600000", "continuous at 3600000"])
        #expect(clock.now(.wall) == wallStart + .seconds(3_000))
        try loop.setWall(to: wallStart + .seconds(7_200))
        #expect(log.entries.last == "wall at 3600000", "set past its deadline, it fires at once")
        #expect(loop.now == ms(3_600_000))
        #expect(clock.now(.continuous) == Instant.zero + .seconds(3_600))
        withExtendedLifetime(timers) {}
    }

    @Test("sleepMachine(for:): uptime stands still; continuous and wall dispatch timers fire as it wakes")
    func sleepMachineKeepsUptime() throws {
        let (loop, clock) = makeVirtualLoop()
        let log = Transcript()
        oneShot("timer", at: 3_600_000, on: loop, into: log)
        let timers = dispatchTimers(on: loop, into: log)
        try loop.advance(by: .seconds(600))
        try loop.sleepMachine(for: .seconds(3_000))
        #expect(log.entries == ["continuous at 600000", "wall at 600000"])
        #expect(loop.now == ms(600_000))
        #expect(clock.now(.continuous) == Instant.zero + .seconds(3_600))
        try loop.advance(by: .seconds(3_000))
        #expect(
            log.entries == ["continuous at 600000", "wall at 600000", "timer at 3600000", "uptime at 3600000"])
        withExtendedLifetime(timers) {}
    }

    @Test("setWallRate(_:per:): wall time moves at its rate, exactly, and a wall dispatch timer fires when it comes")
    func wallRateIsExact() throws {
        let (loop, clock) = makeVirtualLoop()
        let log = Transcript()
        let wallStart = clock.now(.wall)
        try loop.setWallRate(2, per: 1)
        let timers = dispatchTimers(on: loop, into: log)
        try loop.advance(by: .seconds(3_600))
        #expect(log.entries == ["wall at 1800000", "uptime at 3600000", "continuous at 3600000"])
        #expect(clock.now(.wall) == wallStart + .seconds(7_200))
        #expect(clock.now(.continuous) == Instant.zero + .seconds(3_600))
        try loop.setWallRate(1, per: 3)
        let third = DispatchTimer(clock: .wall, runLoop: loop) { _ in log.append("third at \(loop.now.milliseconds)") }
        third.schedule(deadline: .after(.seconds(10)))
        third.resume()
        try loop.advance(by: .seconds(10))
        #expect(clock.now(.wall) == wallStart + .seconds(7_200) + .nanoseconds(3_333_333_333))
        try loop.advance(by: .seconds(20))
        #expect(clock.now(.wall) == wallStart + .seconds(7_210))
        #expect(log.entries.last == "third at 3630000")
        withExtendedLifetime((timers, third)) {}
    }
}
