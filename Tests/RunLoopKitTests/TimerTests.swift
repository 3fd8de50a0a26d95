import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Timers (runloop-reference 1.4, seeds T1–T3)")
struct TimerTests {
    @Test("T1/C-T5: a one-shot timer fires once and invalidates itself")
    func oneShotFiresOnceThenInvalidates() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let timer = addRecordingTimer("once", to: loop, recorder: recorder, firstAt: 100)
        let result = loop.run(until: ms(1_000))
        #expect(recorder.times(of: "once") == [100])
        #expect(!timer.isValid)
        #expect(result == .finished, "the mode empties when its only timer is invalidated")
        #expect(timer.fireDate == ms(100), "decision 1: an invalidated timer keeps its last fire date")
    }

    @Test("T1: a repeating timer runs on its grid until invalidated")
    func repeatingTimerRunsOnGridUntilInvalidated() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        var count = 0
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { timer in
            recorder.record("tick")
            count += 1
            if count == 3 { timer.invalidate() }
        }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(1_000))
        #expect(recorder.times(of: "tick") == [100, 200, 300])
        #expect(!timer.isValid)
    }

    @Test("T3/C-T6: a timer delayed by another callout fires once late, then on its original grid")
    func lateTimerFiresOnceThenReturnsToGrid() {
        // runloop-reference item 1 (b2): 100 ms period, loop blocked 130..480 ms → 100, 480, 500, 600.
        let (loop, clock) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let periodic = addRecordingTimer("periodic", to: loop, recorder: recorder, firstAt: 100, every: 100)
        addRecordingTimer("blocker", to: loop, recorder: recorder, firstAt: 130, work: .milliseconds(350), clock: clock)
        loop.run(until: ms(650))
        #expect(recorder.times(of: "periodic") == [100, 480, 500, 600])
        #expect(periodic.fireDate == ms(700))
    }

    @Test("T3/C-T6: a callout that overruns its own period does not catch up")
    func overrunningCalloutDoesNotCatchUp() {
        // runloop-reference item 1 (b1): first callout takes 350 ms → fires 100, 500, 600.
        let (loop, clock) = makeVirtualLoop()
        let recorder = Recorder(loop)
        var first = true
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { _ in
            recorder.record("tick")
            if first { clock.busy(.milliseconds(350)) }
            first = false
        }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(650))
        #expect(recorder.times(of: "tick") == [100, 500, 600])
    }

    @Test("C-T6: a callout that moves its fire date later keeps that date")
    func calloutMovingFireDateLaterKeepsIt() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        var moved = false
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { timer in
            recorder.record("tick")
            if !moved {
                moved = true
                timer.fireDate = ms(350)
            }
        }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(500))
        #expect(recorder.times(of: "tick") == [100, 350, 450])
    }

    @Test("C-T6/C-T7: a callout that sets its fire date in the past fires again at once, then on a grid from that time")
    func calloutSettingPastFireDateFiresAgainAtOnce() {
        let (loop, clock) = makeVirtualLoop()
        let recorder = Recorder(loop)
        var calls = 0
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { timer in
            recorder.record("tick")
            calls += 1
            if calls == 1 {
                clock.busy(.milliseconds(30))
                timer.fireDate = ms(50)
            }
        }
        loop.add(timer, forMode: .default)
        let result = loop.run(until: ms(350))
        #expect(
            recorder.times(of: "tick") == [100, 130, 230, 330], "again at once (130, in the same run), grid from 130")
        #expect(result == .timedOut)
    }

    @Test("T2/C-T11: fire() runs the block now without disturbing a repeating schedule")
    func fireDoesNotDisturbRepeatingSchedule() {
        let (loop, clock) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let timer = addRecordingTimer("tick", to: loop, recorder: recorder, firstAt: 100, every: 100)
        clock.busy(.milliseconds(30))
        timer.fire()
        #expect(timer.fireDate == ms(100))
        loop.run(until: ms(250))
        #expect(recorder.times(of: "tick") == [30, 100, 200])
        #expect(timer.isValid)
    }

    @Test("T2/C-T11: fire() on a one-shot timer invalidates it")
    func fireInvalidatesOneShot() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let timer = addRecordingTimer("once", to: loop, recorder: recorder, firstAt: 100)
        timer.fire()
        #expect(!timer.isValid)
        #expect(loop.run(until: ms(500)) == .finished)
        #expect(recorder.times(of: "once") == [0])
        timer.fire()
        #expect(recorder.events.count == 1, "an invalid timer does not fire")
    }

    @Test("C-T11: a one-shot timer's interval reads zero; a repeating one keeps it")
    func intervalOfOneShotIsZero() {
        let oneShot = Timer(fireAt: ms(5), interval: .milliseconds(300), repeats: false) { _ in }
        let repeating = Timer(fireAt: ms(5), interval: .milliseconds(300), repeats: true) { _ in }
        #expect(oneShot.interval == .zero)
        #expect(!oneShot.repeats)
        #expect(repeating.interval == .milliseconds(300))
        #expect(oneShot.fireDate == ms(5) && oneShot.isValid && repeating.isValid)
    }

    @Test("decision 1: a repeating timer with interval <= 0 repeats every 0.1 ms")
    func zeroIntervalRepeatsEveryTenthOfAMillisecond() {
        let timer = Timer(fireAt: ms(0), interval: .zero, repeats: true) { _ in }
        #expect(timer.interval == .microseconds(100))
        let negative = Timer(fireAt: ms(0), interval: .milliseconds(-5), repeats: true) { _ in }
        #expect(negative.interval == .microseconds(100))
    }

    @Test("C-T1: a fire date in the past fires at the next pass, and the timer's date becomes now")
    func pastFireDateMeansNow() {
        let (loop, clock) = makeVirtualLoop()
        clock.busy(.seconds(1))
        let recorder = Recorder(loop)
        let timer = addRecordingTimer("late", to: loop, recorder: recorder, firstAt: 10, every: 100)
        #expect(timer.fireDate == ms(1_000))
        loop.run(until: ms(1_150))
        #expect(recorder.times(of: "late") == [1_000, 1_100])
    }

    @Test("C-T1 on the system clock: a date since the last pass began is kept, an earlier one becomes now")
    func passTimeSparesTheClockRead() {
        let loop = RunLoop(timeSource: .system)
        // One pass over an empty mode (a poll): its start is the time a timer's date is compared with.
        loop.add(Timer(fireAt: .distantFuture, interval: .zero, repeats: false) { _ in }, forMode: .default)
        loop.run(mode: .default, until: .zero)
        let passStart = loop.lastPassTime
        let recent = Timer(fireAt: Instant(nanoseconds: passStart), interval: .zero, repeats: false) { _ in }
        loop.add(recent, forMode: .default)
        #expect(recent.fireDate.nanoseconds == passStart)
        let before = loop.now
        let older = Timer(fireAt: Instant(nanoseconds: passStart - 1), interval: .zero, repeats: false) { _ in }
        loop.add(older, forMode: .default)
        #expect(older.fireDate >= before)
        var fired: [String] = []
        recent.invalidate()
        let due = Timer(fireAt: Instant(nanoseconds: passStart), interval: .zero, repeats: false) { _ in
            fired.append("due")
        }
        loop.add(due, forMode: .default)
        loop.run(mode: .default, until: .zero)
        #expect(fired == ["due"])
        older.invalidate()
    }

    @Test("C-T3/decision 2: equal fire times fire in insertion order")
    func equalFireTimesFireInInsertionOrder() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        for name in ["a", "b", "c", "d", "e"] {
            addRecordingTimer(name, to: loop, recorder: recorder, firstAt: 100)
        }
        loop.run(until: ms(200))
        #expect(recorder.events == ["a", "b", "c", "d", "e"])
    }

    @Test("C-T3: a timer invalidated by an earlier callout in the same pass does not fire")
    func timerInvalidatedEarlierInPassDoesNotFire() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        var victim: Timer?
        let killer = Timer(fireAt: ms(100), interval: .zero, repeats: false) { _ in
            recorder.record("killer")
            victim?.invalidate()
        }
        loop.add(killer, forMode: .default)
        victim = addRecordingTimer("victim", to: loop, recorder: recorder, firstAt: 100)
        loop.run(until: ms(200))
        #expect(recorder.events == ["killer"])
    }

    @Test("C-T3: a timer added by a callout with a due date waits for the next pass")
    func timerAddedDuringPassWaitsForNextPass() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let spawner = Timer(fireAt: ms(100), interval: .zero, repeats: false) { _ in
            recorder.record("spawner")
            addRecordingTimer("child", to: loop, recorder: recorder, firstAt: 0)
        }
        loop.add(spawner, forMode: .default)
        let observer = RunLoop.Observer(activities: .beforeTimers) { _, _ in recorder.record("pass") }
        loop.add(observer, forMode: .default)
        loop.run(until: ms(200))
        #expect(recorder.events.filter { $0 != "pass" } == ["spawner", "child"])
        let spawnerIndex = recorder.events.firstIndex(of: "spawner")!
        let childIndex = recorder.events.firstIndex(of: "child")!
        #expect(recorder.events[spawnerIndex..<childIndex].contains("pass"))
    }

    @Test("C-T4: a timer never fires re-entrantly from a nested run inside its own callout")
    func timerDoesNotFireReentrantly() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        var depth = 0
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(10), repeats: true) { timer in
            recorder.record("tick")
            depth += 1
            #expect(depth == 1)
            if recorder.events.count == 1 {
                let nested = loop.run(mode: .default, until: loop.now + .milliseconds(100))
                recorder.record("nested:\(nested)")
            }
            depth -= 1
        }
        loop.add(timer, forMode: .default)
        addRecordingTimer("other", to: loop, recorder: recorder, firstAt: 150)
        loop.run(until: ms(205))
        #expect(recorder.events.prefix(3) == ["tick", "other", "nested:timedOut"])
        // C-T6 after the 100 ms nested run: next grid point after 200 is 210.
        #expect(recorder.times(of: "tick") == [100])
        loop.run(until: ms(215))
        #expect(recorder.times(of: "tick") == [100, 210])
    }

    @Test("C-T2: a timer belongs to one run loop; adding it to another is ignored")
    func timerBelongsToOneRunLoop() {
        let (first, _) = makeVirtualLoop()
        let (second, _) = makeVirtualLoop()
        let timer = Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in }
        first.add(timer, forMode: .default)
        second.add(timer, forMode: .default)
        #expect(first.contains(timer, inMode: .default))
        #expect(!second.contains(timer, inMode: .default))
        #expect(second.run(until: ms(100)) == .finished)
        #expect(timer.isValid)
    }

    @Test("C-T2: a timer in several modes leaves the loop only when removed from its last mode")
    func timerLeavesLoopAfterLastMode() {
        let (loop, _) = makeVirtualLoop()
        let (other, _) = makeVirtualLoop()
        let timer = Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in }
        loop.add(timer, forMode: .default)
        loop.add(timer, forMode: .tracking)
        #expect(Set(timer.modes) == [.default, .tracking])
        loop.remove(timer, forMode: .default)
        other.add(timer, forMode: .default)
        #expect(!other.contains(timer, inMode: .default), "still in tracking of the first loop")
        loop.remove(timer, forMode: .tracking)
        #expect(timer.modes.isEmpty && timer.isValid)
        other.add(timer, forMode: .default)
        #expect(other.contains(timer, inMode: .default))
    }

    @Test("C-T7: setting the fire date repositions the timer in every mode; a past date means now")
    func settingFireDateRepositionsInEveryMode() {
        let (loop, clock) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let timer = addRecordingTimer(
            "t", to: loop, recorder: recorder, firstAt: 500, every: 100,
            modes: [.default, .tracking])
        timer.fireDate = ms(200)
        #expect(loop.nextFireDate(forMode: .default) == ms(200))
        #expect(loop.nextFireDate(forMode: .tracking) == ms(200))
        clock.busy(.milliseconds(50))
        timer.fireDate = ms(10)
        #expect(timer.fireDate == ms(50))
        loop.run(mode: .tracking, until: ms(260))
        #expect(recorder.times(of: "t") == [50, 150, 250])
    }

    @Test("C-T8: invalidate is idempotent, works inside the callout and removes the timer from every mode")
    func invalidateInsideCalloutRemovesEverywhere() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let recorder = Recorder(loop)
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { timer in
            recorder.record("tick")
            timer.invalidate()
            timer.invalidate()
            #expect(!timer.isValid)
        }
        loop.add(timer, forMode: .common)
        loop.run(until: ms(1_000))
        #expect(recorder.times(of: "tick") == [100])
        #expect(timer.modes.isEmpty)
        #expect(loop.nextFireDate(forMode: .tracking) == nil)
        loop.addCommonMode("later")
        #expect(loop.nextFireDate(forMode: "later") == nil, "an invalidated timer is no longer a common item")
    }

    @Test("C-T8/L1: invalidate releases the block and what it captured")
    func invalidateReleasesBlock() {
        final class Owner {}
        let (loop, _) = makeVirtualLoop()
        weak var weakOwner: Owner?
        let timer: Timer
        do {
            let owner = Owner()
            weakOwner = owner
            timer = Timer(fireAt: ms(100), interval: .seconds(1), repeats: true) { _ in _ = owner }
            loop.add(timer, forMode: .default)
        }
        #expect(weakOwner != nil, "the scheduled timer keeps its block, and the block its owner")
        timer.invalidate()
        #expect(weakOwner == nil)
    }

    @Test("C-T9: tolerance is clamped to half the interval for repeating timers and never negative")
    func toleranceIsClamped() {
        let repeating = Timer(fireAt: ms(0), interval: .milliseconds(100), repeats: true) { _ in }
        repeating.tolerance = .milliseconds(80)
        #expect(repeating.tolerance == .milliseconds(50))
        let oneShot = Timer(fireAt: ms(0), interval: .zero, repeats: false) { _ in }
        oneShot.tolerance = .seconds(3)
        #expect(oneShot.tolerance == .seconds(3))
        oneShot.tolerance = .milliseconds(-1)
        #expect(oneShot.tolerance == .zero)
    }

    @Test("C-T9: tolerance is kept to the nanosecond, short and long; under 4.29 s it needs no second object")
    func toleranceIsExactAndInline() {
        let tolerant = Timer(fireAt: ms(0), interval: .zero, repeats: false) { _ in }
        for value: Duration in [
            .nanoseconds(1), .nanoseconds(4_294_967_294), .nanoseconds(4_294_967_295), .seconds(3_600),
        ] {
            tolerant.tolerance = value
            #expect(tolerant.tolerance == value)
        }
        tolerant.tolerance = .milliseconds(100)
        #expect(tolerant.tolerance == .milliseconds(100), "back inline after a long one")
        let short = Timer(fireAt: ms(0), interval: .zero, repeats: false) { _ in }
        // A timer made while a virtual clock exists (another test's) keeps its creation site in the extras.
        let hadExtras = short.hasExtras
        short.tolerance = .seconds(4)
        #expect(short.hasExtras == hadExtras, "a tolerance under 4.29 s needs no second object")
        short.tolerance = .seconds(5)
        #expect(short.hasExtras && short.tolerance == .seconds(5), "a longer one is kept in the extras")
    }

    @Test("A sleep's timer is marked in the timer itself, with no second object")
    func sleeperMarkIsInline() {
        let timer = Timer(fireAt: ms(0), interval: .zero, repeats: false) { _ in }
        // A timer made while a virtual clock exists (another test's) keeps its creation site in the extras.
        let hadExtras = timer.hasExtras
        timer.isSleeper = true
        #expect(timer.isSleeper && timer.hasExtras == hadExtras)
        #expect(timer.isValid && !timer.isCommonItem, "the other flags are left alone")
        timer.isSleeper = false
        #expect(!timer.isSleeper)
    }

    @Test("C-T9: tolerance lets one wake-up serve several timers without moving the grid")
    func toleranceCoalescesWakeUpsOnGrid() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let tolerant = addRecordingTimer("tolerant", to: loop, recorder: recorder, firstAt: 100, every: 100)
        tolerant.tolerance = .milliseconds(40)
        addRecordingTimer("strict", to: loop, recorder: recorder, firstAt: 130)
        let wakes = RunLoop.Observer(activities: .afterWaiting) { _, _ in recorder.record("wake") }
        loop.add(wakes, forMode: .default)
        loop.run(until: ms(250))
        #expect(recorder.times(of: "tolerant") == [130, 200])
        #expect(recorder.times(of: "strict") == [130])
        #expect(recorder.times(of: "wake") == [130, 200, 250])
        #expect(tolerant.fireDate == ms(300), "tolerance never moves the grid")
    }

    @Test("C-T9: a lone tolerant timer is not delayed")
    func loneTolerantTimerIsNotDelayed() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let timer = addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 100)
        timer.tolerance = .milliseconds(500)
        loop.run(until: ms(1_000))
        #expect(recorder.times(of: "t") == [100])
    }

    @Test("C-T11/M1: scheduledTimer adds to the current run loop's default mode, first fire one interval out")
    func scheduledTimerUsesCurrentLoopDefaultMode() {
        let (loop, clock) = makeVirtualLoop()
        clock.busy(.milliseconds(20))
        let recorder = Recorder(loop)
        RunLoop.withCurrent(loop) {
            let timer = Timer.scheduledTimer(withInterval: .milliseconds(200), repeats: false) { _ in
                recorder.record("fired")
            }
            #expect(timer.modes == [.default])
            #expect(timer.fireDate == ms(220), "decision 1: Darwin, not Linux Foundation's fire-at-once")
        }
        loop.run(until: ms(500))
        #expect(recorder.times(of: "fired") == [220])
    }

    @Test("C-T11: userInfo is carried by the timer")
    func userInfoIsCarried() {
        let timer = Timer(fireAt: ms(0), interval: .zero, repeats: false) { _ in }
        #expect(timer.userInfo == nil)
        timer.userInfo = "countdown"
        #expect(timer.userInfo as? String == "countdown")
    }
}
