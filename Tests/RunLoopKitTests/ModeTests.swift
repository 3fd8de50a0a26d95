import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Modes and common modes (runloop-reference 1.1, seeds M1–M4)")
struct ModeTests {
    @Test("C-M1: modes are created by name on first use and stay")
    func modesAreCreatedOnFirstUse() {
        let (loop, _) = makeVirtualLoop()
        #expect(loop.allModes == [.default])
        let timer = Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in }
        loop.add(timer, forMode: "custom")
        #expect(loop.allModes == [.default, "custom"])
        timer.invalidate()
        #expect(loop.allModes == [.default, "custom"], "mode structures are never deallocated")
    }

    @Test("C-M3/decision 6: a new run loop's common-modes set is [default]")
    func newLoopCommonModesIsDefault() {
        let (loop, _) = makeVirtualLoop()
        #expect(loop.commonModes == [.default])
    }

    @Test("C-M4/M3: an item added to common is in every common mode and remembered")
    func commonItemGoesIntoEveryCommonMode() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let timer = Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in }
        loop.add(timer, forMode: .common)
        #expect(Set(timer.modes) == [.default, .tracking])
        #expect(!loop.contains(timer, inMode: "custom"))
    }

    @Test("C-M5: making a mode common copies every remembered common item into it; idempotent")
    func addCommonModeCopiesCommonItems() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let timer = addRecordingTimer("common", to: loop, recorder: recorder, firstAt: 100, modes: [.common])
        let observer = RunLoop.Observer(activities: .entry) { _, _ in recorder.record("entry") }
        loop.add(observer, forMode: .common)
        #expect(timer.modes == [.default])
        loop.addCommonMode(.tracking)
        loop.addCommonMode(.tracking)
        #expect(loop.commonModes == [.default, .tracking])
        #expect(Set(timer.modes) == [.default, .tracking])
        loop.run(mode: .tracking, until: ms(200))
        #expect(recorder.events == ["entry", "common"])
    }

    @Test("C-M4: without making tracking common, a common timer does not fire in tracking")
    func commonTimerDoesNotReachNonCommonTracking() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        addRecordingTimer("common", to: loop, recorder: recorder, firstAt: 100, modes: [.common])
        addRecordingTimer("tracking-only", to: loop, recorder: recorder, firstAt: 500, modes: [.tracking])
        loop.run(mode: .tracking, until: ms(200))
        #expect(recorder.events.isEmpty)
    }

    @Test("C-M6: removing from common removes from every common mode; removing from one mode leaves others")
    func removeFromCommonRemovesEverywhere() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let timer = Timer(fireAt: ms(10), interval: .milliseconds(10), repeats: true) { _ in }
        loop.add(timer, forMode: .common)
        loop.add(timer, forMode: "custom")
        loop.remove(timer, forMode: .tracking)
        #expect(Set(timer.modes) == [.default, "custom"])
        loop.remove(timer, forMode: .common)
        #expect(timer.modes == ["custom"])
        loop.addCommonMode("later")
        #expect(timer.modes == ["custom"], "no longer a common item")
    }

    @Test("C-M7/decision 4: running in the common pseudo-mode returns finished at once")
    func runningInCommonFinishes() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 100, modes: [.common])
        #expect(loop.run(mode: .common, until: ms(1_000)) == .finished)
        #expect(loop.now == ms(0) && recorder.events.isEmpty)
        #expect(loop.run(mode: .common, before: ms(1_000)) == false)
    }

    @Test("C-M8/C-M9: an empty or unknown mode returns finished at once, before entry observers")
    func emptyModeFinishesWithoutObservers() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let observer = RunLoop.Observer(activities: .allActivities) { _, activity in recorder.record("\(activity)") }
        loop.add(observer, forMode: .default)
        #expect(loop.run(mode: .default, until: ms(1_000)) == .finished)
        #expect(loop.run(mode: "never-created", until: ms(1_000)) == .finished)
        #expect(recorder.events.isEmpty)
        #expect(loop.now == ms(0))
        #expect(loop.allModes == [.default], "running a mode does not create it")
    }

    @Test("C-M8: a pending block addressed to a mode makes it non-empty")
    func pendingBlockMakesModeNonEmpty() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        loop.perform(inModes: [.default]) { recorder.record("block") }
        // Section 0 item 5: emptiness is re-checked only after a wake-up, so the run sleeps to its limit.
        #expect(loop.run(mode: .default, until: ms(1_000)) == .timedOut)
        #expect(recorder.events == ["block"])
        #expect(recorder.times(of: "block") == [0])
        #expect(loop.run(mode: .default, until: ms(2_000)) == .finished)
    }

    @Test("C-M10: only the running mode's timers are serviced")
    func onlyRunningModeIsServiced() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        addRecordingTimer("default", to: loop, recorder: recorder, firstAt: 100)
        addRecordingTimer("custom", to: loop, recorder: recorder, firstAt: 100, every: 200, modes: ["custom"])
        loop.run(mode: "custom", until: ms(500))
        #expect(recorder.events == ["custom", "custom", "custom"])
        loop.run(mode: .default, until: ms(600))
        #expect(recorder.times(of: "default") == [500])
    }

    @Test(
        "C-M11/M2: a callout runs tracking re-entrantly; default timers pause, common ones keep going, one late fire on return"
    )
    func trackingPausesDefaultTimersNotCommonOnes() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let recorder = Recorder(loop)
        addRecordingTimer("default", to: loop, recorder: recorder, firstAt: 100, every: 100)
        addRecordingTimer("common", to: loop, recorder: recorder, firstAt: 100, every: 100, modes: [.common])
        let gesture = Timer(fireAt: ms(250), interval: .zero, repeats: false) { _ in
            recorder.record("drag:\(loop.currentMode!):\(loop.nestingDepth)")
            let result = loop.run(mode: .tracking, until: ms(720))
            recorder.record("drag-end:\(result):\(loop.currentMode!)")
        }
        loop.add(gesture, forMode: .default)
        loop.run(mode: .default, until: ms(1_000))
        #expect(recorder.times(of: "common") == [100, 200, 300, 400, 500, 600, 700, 800, 900, 1_000])
        // M2/T3: paused 250…720, then one late fire at 720 and back on the grid — no catch-up burst.
        #expect(recorder.times(of: "default") == [100, 200, 720, 800, 900, 1_000])
        #expect(recorder.events.contains("drag:default:1"))
        #expect(recorder.events.contains("drag-end:timedOut:default"))
    }

    @Test("M3: adding a timer to default and tracking one by one equals adding it to common")
    func addingToBothModesEqualsCommon() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let recorder = Recorder(loop)
        addRecordingTimer("both", to: loop, recorder: recorder, firstAt: 100, every: 100, modes: [.default, .tracking])
        addRecordingTimer("common", to: loop, recorder: recorder, firstAt: 100, every: 100, modes: [.common])
        loop.run(mode: .tracking, until: ms(300))
        #expect(recorder.times(of: "both") == recorder.times(of: "common"))
        #expect(recorder.times(of: "both") == [100, 200, 300])
    }

    @Test("M4: a frame-rate timer left in the default mode pauses while tracking")
    func frameTimerInDefaultModePausesWhileTracking() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let recorder = Recorder(loop)
        let frame = Timer(fireAt: ms(0), interval: .nanoseconds(16_666_667), repeats: true) { _ in
            recorder.record("frame")
        }
        loop.add(frame, forMode: .default)
        addRecordingTimer("input", to: loop, recorder: recorder, firstAt: 10, every: 10, modes: [.common])
        loop.run(mode: .tracking, until: ms(500))
        #expect(recorder.times(of: "frame").isEmpty)
        #expect(recorder.times(of: "input").count == 50)
        loop.run(mode: .default, until: ms(530))
        // One late frame at 500 ms, then the grid: 30 × 16.666667 ms = 500.00001 ms, then 516.7 ms.
        #expect(recorder.times(of: "frame") == [500, 500, 516])
    }
}
