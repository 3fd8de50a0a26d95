import RunLoopKitFoundationCompat
import Testing

/// Where the layer does what Darwin does and Foundation on Linux does not (decisions.md 1), and how
/// dates map onto the loop's clock (G3), on a virtual clock: exact and deterministic.
@Suite("Darwin's behaviour in Foundation's names")
struct DarwinBehaviourTests {
    @Test("Timer(timeInterval:repeats:block:) first fires one interval later, not at once (Linux Foundation #4712)")
    func blockTimerFiresOneIntervalLater() {
        Scene.run { scene in
            var firedAt: [Int64] = []
            let timer = Timer(timeInterval: 0.5, repeats: true) { _ in firedAt.append(scene.milliseconds) }
            scene.loop.add(timer, forMode: .default)
            scene.loop.run(until: scene.date(in: 1.2))
            #expect(firedAt == [500, 1_000])
            #expect(scene.milliseconds == 1_200)
        }
    }

    @Test("tolerance is kept, clamped to half the interval, and lets one wake-up serve two timers (#5183)")
    func toleranceIsHonoured() {
        Scene.run { scene in
            var firedAt: [String: Int64] = [:]
            let early = Timer(timeInterval: 0.1, repeats: false) { _ in firedAt["early"] = scene.milliseconds }
            early.tolerance = 0.05
            let late = Timer(timeInterval: 0.14, repeats: false) { _ in firedAt["late"] = scene.milliseconds }
            scene.loop.add(early, forMode: .default)
            scene.loop.add(late, forMode: .default)
            #expect(early.tolerance == 0.05)
            let repeating = Timer(timeInterval: 1, repeats: true) { _ in }
            repeating.tolerance = 5
            #expect(repeating.tolerance == 0.5)
            scene.loop.run(until: scene.date(in: 1))
            #expect(firedAt == ["early": 140, "late": 140])
        }
    }

    @Test("repeats: true with an interval of 0 repeats every 0.1 ms instead of becoming a one-shot")
    func zeroIntervalRepeats() {
        Scene.run { scene in
            var count = 0
            let timer = Timer(fire: scene.date(in: 0), interval: 0, repeats: true) { timer in
                count += 1
                if count == 3 { timer.invalidate() }
            }
            #expect(timer.timeInterval == 0.0001)
            scene.loop.add(timer, forMode: .default)
            scene.loop.run(until: scene.date(in: 1))
            #expect(count == 3)
        }
    }

    @Test("an invalidated repeating timer keeps the date it last fired")
    func invalidatedTimerKeepsItsLastFireDate() {
        Scene.run { scene in
            let start = scene.date(in: 0)
            let timer = Timer(fire: start.addingTimeInterval(0.25), interval: 0.25, repeats: true) { timer in
                if scene.milliseconds == 500 { timer.invalidate() }
            }
            scene.loop.add(timer, forMode: .default)
            scene.loop.run(until: scene.date(in: 1))
            #expect(!timer.isValid)
            #expect(abs(timer.fireDate.timeIntervalSince(start) - 0.5) < 1e-6)
        }
    }

    @Test(
        "G3: a fire date is converted when set; a later wall-clock jump moves neither the timer nor the date read back")
    func wallClockJumpMovesNothing() {
        Scene.run { scene in
            var firedAt: Int64?
            let timer = Timer(timeInterval: 60, repeats: false) { _ in firedAt = scene.milliseconds }
            let date = scene.date(in: 1)
            timer.fireDate = date
            scene.loop.add(timer, forMode: .default)
            // The machine sleeps for an hour: wall time jumps, uptime does not.
            scene.sleepMachine(3_600)
            #expect(timer.fireDate == date)
            scene.loop.run(until: scene.date(in: 2))
            #expect(firedAt == 1_000)
        }
    }

    @Test("setting fireDate inside the block replaces the next tick; a repeating timer's later dates follow its grid")
    func fireDateSetInsideTheBlock() {
        Scene.run { scene in
            var firedAt: [Int64] = []
            let timer = Timer(timeInterval: 0.1, repeats: true) { timer in
                firedAt.append(scene.milliseconds)
                if firedAt.count == 1 { timer.fireDate = scene.date(in: 0.35) }
            }
            scene.loop.add(timer, forMode: .default)
            scene.loop.run(until: scene.date(in: 0.6))
            #expect(firedAt == [100, 450, 550])
            let expected = scene.date(in: 0.05)
            #expect(abs(timer.fireDate.timeIntervalSince(expected)) < 1e-6)
            timer.invalidate()
        }
    }

    @Test("limitDate(forMode:) is nil for an empty mode and the next fire date, on the loop's wall clock, otherwise")
    func limitDateOnTheLoopsClock() {
        Scene.run { scene in
            #expect(scene.loop.limitDate(forMode: .default) == nil)
            let timer = Timer(timeInterval: 2, repeats: false) { _ in }
            scene.loop.add(timer, forMode: .default)
            let limit = scene.loop.limitDate(forMode: .default)
            #expect(limit.map { abs($0.timeIntervalSince(scene.date(in: 2))) < 1e-6 } == true)
        }
    }

    @Test("RunLoop == holds for the same loop only, and a loop's object hashes alike each time")
    func runLoopEquality() {
        let outer = RunLoop.current
        Scene.run { scene in
            #expect(scene.loop != outer)
            #expect(scene.loop == RunLoop.current)
            #expect(Set([scene.loop, RunLoop.current, outer]).count == 2)
        }
        #expect(RunLoop.current === outer)
    }

    @Test("run() returns once nothing is left in the default mode")
    func runReturnsWhenTheModeEmpties() {
        Scene.run { scene in
            var count = 0
            let timer = Timer(timeInterval: 1, repeats: true) { timer in
                count += 1
                if count == 3 { timer.invalidate() }
            }
            scene.loop.add(timer, forMode: .default)
            scene.loop.run()
            #expect(count == 3)
            #expect(scene.milliseconds == 3_000)
        }
    }
}
