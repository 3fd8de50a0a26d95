import Glibc
import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("A controllable clock: pause, advance, rate, simulated sleep and wall-clock changes (seed G3, decisions.md 9)")
struct TimeControlTests {
    /// A loop on a time control over a virtual clock.
    private func makeControlledLoop() -> (RunLoop, TimeControl, VirtualClock) {
        let base = VirtualClock()
        let control = TimeControl(base: .virtual(base))
        return (RunLoop(timeSource: .controlled(control)), control, base)
    }

    /// A repeating timer from `first` every `interval` that records the loop's time (ms) of each fire.
    private func recordingTimer(
        on loop: RunLoop, first: Int64, every interval: Int64, into fires: @escaping (Int64) -> Void
    ) -> Timer {
        let timer = Timer(fireAt: ms(first), interval: .milliseconds(interval), repeats: true) { _ in
            fires(loop.now.milliseconds)
        }
        loop.add(timer, forMode: .default)
        return timer
    }

    @Test("Pause: time stands still while the base moves on; timers go on where they were, on their grid")
    func pauseHoldsTimers() {
        let (loop, control, base) = makeControlledLoop()
        var fires: [Int64] = []
        let timer = recordingTimer(on: loop, first: 1_000, every: 1_000) { fires.append($0) }
        loop.run(until: ms(2_500))
        control.isPaused = true
        base.busy(.seconds(10))
        #expect(control.now().milliseconds == 2_500)
        #expect(control.isPaused)
        control.isPaused = false
        loop.run(until: ms(4_500))
        #expect(fires == [1_000, 2_000, 3_000, 4_000])
        #expect(base.now().milliseconds == 14_500, "the ten seconds of pause passed on the base only")
        timer.invalidate()
    }

    @Test("Rate: at a quarter of the base's rate a 1 s timer fires every 4 s of base time, on time")
    func rateSlowsEverythingDown() {
        let (loop, control, base) = makeControlledLoop()
        control.rate = (1, 4)
        var fires: [(Int64, Int64)] = []
        let timer = Timer(fireAt: ms(1_000), interval: .seconds(1), repeats: true) { timer in
            fires.append((base.now().milliseconds, loop.now.nanoseconds - timer.fireDate.nanoseconds))
        }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(3_000))
        #expect(fires.map(\.0) == [4_000, 8_000, 12_000])
        #expect(fires.allSatisfy { $0.1 == 0 }, "no lateness")
        #expect(control.rate == (1, 4))
        timer.invalidate()
    }

    @Test("G3: a simulated sleep moves continuous and wall time, not uptime; only continuous timers move")
    func sleepMovesContinuousClockOnly() {
        let (loop, control, _) = makeControlledLoop()
        var fired: [String] = []
        let continuous = DispatchTimer(clock: .continuous, runLoop: loop) { _ in
            fired.append("continuous at \(loop.now.milliseconds)")
        }
        continuous.schedule(deadline: .after(.seconds(60)))
        continuous.resume()
        let uptime = Timer(fireAt: ms(60_000), interval: .zero, repeats: false) { _ in
            fired.append("uptime at \(loop.now.milliseconds)")
        }
        loop.add(uptime, forMode: .default)
        let wallBefore = control.now(.wall)
        control.sleepMachine(for: .seconds(30))
        #expect(control.now().milliseconds == 0)
        #expect(control.now(.continuous).milliseconds == 30_000)
        #expect(wallBefore.duration(to: control.now(.wall)) == .seconds(30))
        loop.run(until: ms(61_000))
        #expect(fired == ["continuous at 30000", "uptime at 60000"])
    }

    @Test("Setting the wall clock moves wall-clock dispatch timers and nothing else")
    func wallJumpMovesWallTimersOnly() {
        let (loop, control, _) = makeControlledLoop()
        var fired: [String] = []
        let timers = ClockKind.allCases.map { kind in
            let timer = DispatchTimer(clock: kind, runLoop: loop) { _ in
                fired.append("\(kind) at \(loop.now.milliseconds)")
            }
            timer.schedule(deadline: .after(.seconds(3_600)))
            timer.resume()
            return timer
        }
        control.setWall(to: control.now(.wall) + .seconds(3_600))
        #expect(control.now(.continuous).milliseconds == 0)
        loop.run(until: ms(1_000))
        #expect(fired == ["wall at 0"])
        control.setWall(to: control.now(.wall) - .seconds(1_800))
        loop.run(until: ms(3_600_000))
        #expect(fired == ["wall at 0", "uptime at 3600000", "continuous at 3600000"])
        withExtendedLifetime(timers) {}
    }
}

@Suite("A controllable clock over the kernel's clocks: real waits")
struct RealTimeControlTests {
    @Test("A paused loop sleeps with no deadline: its first wake-up is the resume from another thread")
    func pausedLoopSleepsUntilResumed() async {
        await runOnDedicatedThread {
            let control = TimeControl(base: .system)
            let loop = RunLoop(timeSource: .controlled(control))
            control.isPaused = true
            let resumed = Atomic<Bool>(false)
            var reasons: [RunLoop.WakeReason] = []
            var firedAfterResume: Bool?
            var signalled = false
            let observer = RunLoop.Observer(activities: [.beforeWaiting, .afterWaiting]) { [unowned loop] _, activity in
                if activity == .afterWaiting, let reason = loop.lastWakeReason { reasons.append(reason) }
                guard activity == .beforeWaiting, !signalled else { return }
                signalled = true
                spawnThread {
                    resumed.store(true, ordering: .releasing)
                    control.isPaused = false
                }
            }
            loop.add(observer, forMode: .default)
            let timer = Timer(fireAt: loop.now + .milliseconds(5), interval: .zero, repeats: false) { _ in
                firedAfterResume = resumed.load(ordering: .acquiring)
                loop.stop()
            }
            loop.add(timer, forMode: .default)
            loop.run(mode: .default, until: .distantFuture)
            #expect(firedAfterResume == true)
            #expect(reasons.first == .wakeUp)
        }
    }

    @Test("At a quarter of real speed a timer 20 ms ahead fires no sooner than 80 ms later")
    func rateHoldsOnTheKernelClock() async {
        await runOnDedicatedThread {
            let control = TimeControl(base: .system)
            let loop = RunLoop(timeSource: .controlled(control))
            control.rate = (1, 4)
            let start = TimeSource.system.now()
            var elapsed: Duration?
            let timer = Timer(fireAt: loop.now + .milliseconds(20), interval: .zero, repeats: false) { _ in
                elapsed = start.duration(to: TimeSource.system.now())
            }
            loop.add(timer, forMode: .default)
            loop.run(until: loop.now + .milliseconds(40))
            #expect(elapsed.map { $0 >= .milliseconds(80) } == true)
        }
    }

    @Test("An advance on the kernel clock fires a timer hours ahead at once, though time stays paused")
    func advanceOnTheKernelClock() async {
        await runOnDedicatedThread {
            let control = TimeControl(base: .system)
            let loop = RunLoop(timeSource: .controlled(control))
            control.isPaused = true
            var fired = false
            let timer = Timer(fireAt: loop.now + .seconds(7_200), interval: .zero, repeats: false) { _ in
                fired = true
                loop.stop()
            }
            loop.add(timer, forMode: .default)
            let target = loop.nextFireDate(forMode: .default)
            if let target { control.advance(to: target) }
            // Paused, the loop has no deadline to wait for, but what the advance made due fires.
            loop.run(mode: .default, until: .distantFuture)
            #expect(fired)
            #expect(target.map { control.now() == $0 } == true, "paused at the advance's instant")
        }
    }
}
