import Dispatch
import RunLoopKitFoundationCompat
import Synchronization
import TestSupport
import Testing

// CADisplayLink and GCD timers are not Foundation: RunLoopKit's DisplayLink, DispatchTimer and
// NamedTimers stand for them, imported one by one so that RunLoop and Timer stay Foundation's.
import class RunLoopKit.DispatchTimer
import class RunLoopKit.DisplayLink
import class RunLoopKit.NamedTimers

/// The seeds' CADisplayLink and GCD examples (seeds 002, 003) in Swift, beside Foundation-named run
/// loops, checking what the articles say happens. Display links and loop-delivered dispatch timers
/// run on a virtual clock; the named-timer container runs on a real queue, with bounded waits.
@Suite("Seed CADisplayLink and GCD examples")
struct SeedDisplayLinkAndGCDExampleTests {
    /// The seed's `[CADisplayLink displayLinkWithTarget:selector:]` added to the current run loop's
    /// default mode, with the callback's times in milliseconds.
    private func displayLink(in scene: Scene, _ callback: @escaping (DisplayLink) -> Void = { _ in }) -> (
        DisplayLink, () -> [Int64]
    ) {
        var times: [Int64] = []
        let link = DisplayLink { link in
            times.append(scene.milliseconds)
            callback(link)
        }
        link.add(to: scene.loop.base, forMode: RunLoop.Mode.default.base)
        return (link, { times })
    }

    @Test("D1, D2 (seed 003): a display link calls back once per 60 Hz refresh; duration is one refresh")
    func displayLinkFollowsTheRefresh() {
        Scene.run { scene in
            let (link, times) = displayLink(in: scene)
            scene.loop.run(until: scene.date(in: 0.1))
            #expect(times() == [16, 33, 50, 66, 83, 100])
            #expect(link.duration == .nanoseconds(16_666_666))
            link.invalidate()
        }
    }

    @Test("D2 (seed 003): frameInterval 2 calls back on every other refresh")
    func frameIntervalSkipsRefreshes() {
        Scene.run { scene in
            let (link, times) = displayLink(in: scene)
            link.frameInterval = 2
            scene.loop.run(until: scene.date(in: 0.1))
            #expect(times() == [16, 50, 83])
            link.invalidate()
        }
    }

    @Test("D3 (seed 003): a callback slower than a frame skips the refreshes it missed, never queues them")
    func slowCallbackSkipsFrames() {
        Scene.run { scene in
            let (link, times) = displayLink(in: scene) { _ in scene.busy(0.04) }
            scene.loop.run(until: scene.date(in: 0.2))
            #expect(times() == [16, 66, 116, 166])
            // Each 40 ms callback overruns the next two refreshes.
            #expect(link.skippedFrames == 8)
            link.invalidate()
        }
    }

    @Test("D4 (seed 003): invalidate takes the link out of the run loop and stops the callbacks")
    func invalidateRemovesTheLink() {
        Scene.run { scene in
            let (link, times) = displayLink(in: scene) { link in link.invalidate() }
            scene.loop.run(until: scene.date(in: 0.1))
            #expect(times() == [16])
            #expect(!link.isValid && link.modes.isEmpty)
            #expect(scene.loop.limitDate(forMode: .default) == nil)
        }
    }

    @Test("M4 (seed 003): a default-mode display link stands still while a scroll view is dragged")
    func displayLinkPausesWhileTracking() {
        Scene.run { scene in
            let (link, times) = displayLink(in: scene)
            scene.scroll(from: 0.04, to: 0.09)
            scene.loop.run(until: scene.date(in: 0.12))
            #expect(times() == [16, 33, 100, 116])
            link.invalidate()
        }
    }

    @Test(
        "G1, G2 (seed 003): a dispatch timer started now fires at once, then every second, and keeps going while dragging"
    )
    func dispatchTimerIgnoresTracking() {
        Scene.run { scene in
            scene.makeTrackingCommon()
            var times: [Int64] = []
            let timer = DispatchTimer(clock: .wall, runLoop: scene.loop.base) { _ in times.append(scene.milliseconds) }
            timer.schedule(deadline: .now, repeating: .seconds(1))
            timer.resume()
            scene.scroll(from: 1.5, to: 3.5)
            scene.loop.run(until: scene.date(in: 4.5))
            #expect(times == [0, 1_000, 2_000, 3_000, 4_000])
            timer.cancel()
        }
    }

    @Test("G4 (seed 003): releasing a suspended dispatch timer, which crashes GCD, is safe")
    func suspendedTimerReleaseIsSafe() {
        Scene.run { scene in
            var events = 0
            var timer: DispatchTimer? = DispatchTimer(runLoop: scene.loop.base) { _ in events += 1 }
            timer?.schedule(deadline: .now, repeating: .seconds(1))
            timer?.resume()
            scene.loop.run(until: scene.date(in: 1.5))
            timer?.suspend()
            timer = nil
            scene.loop.run(until: scene.date(in: 2))
            #expect(events == 2)
        }
    }

    @Test("G5 (seed 002): GCDTimer's container repeats a named timer until cancelled; a one-shot removes itself")
    func namedTimersContainer() {
        let timers = NamedTimers(queue: DispatchQueue(label: "GCDTimer"))
        let ticks = Atomic<Int>(0)
        let third = DispatchSemaphore(value: 0)
        timers.schedule("myTime", every: .milliseconds(10)) {
            if ticks.add(1, ordering: .relaxed).newValue == 3 { third.signal() }
        }
        let once = DispatchSemaphore(value: 0)
        timers.schedule("once", every: .milliseconds(10), repeats: false) { once.signal() }
        #expect(third.wait(timeout: .now() + 30) == .success)
        #expect(once.wait(timeout: .now() + 30) == .success)
        timers.cancel("myTime")
        #expect(timers.activeNames.isEmpty)
    }
}
