import Dispatch
import RunLoopKitFoundationCompat
import Synchronization
import TestSupport
import Testing

// CADisplayLink and GCD timers are not Foundation: RunLoopKit's DisplayLink and DispatchTimer stand
// for them (with this module's NamedTimers), imported one by one so that RunLoop and Timer stay Foundation's.
import class RunLoopKit.DispatchTimer
import class RunLoopKit.DisplayLink

/// The seeds' CADisplayLink and GCD examples (seeds 002, 003) in Swift, beside Foundation-named run
/// loops, checking what the articles say happens. Display links and loop-delivered dispatch timers
/// run on a virtual clock; the named-timer container runs on a real queue, with bounded waits, and
/// `dispatch_after` on the main queue in a child process whose main thread runs `RunLoop.main`.
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

    /// Seed 003's SMS resend countdown: a GCD timer started now (`dispatch_walltime(NULL, 0)`),
    /// every second, counting 60 down on the button and giving "Send" back at the end. The handler
    /// runs on the loop's thread, where the seed hops to the main queue to touch the button.
    final class SMSCountdown {
        private var timeout = 0
        private var timer: DispatchTimer?
        /// The button's title and whether it is enabled, each time they change.
        let show: (String, Bool) -> Void

        init(show: @escaping (String, Bool) -> Void) {
            self.show = show
        }

        func startCountdown(on loop: RunLoop) {
            if timeout > 0 { return }
            timeout = 60
            let timer = DispatchTimer(clock: .wall, runLoop: loop.base) { [weak self] _ in self?.tick() }
            timer.schedule(deadline: .now, repeating: .seconds(1))
            timer.resume()
            self.timer = timer
        }

        private func tick() {
            if timeout <= 0 {
                timer?.cancel()
                show("Send", true)
            } else {
                show("Resend (\(timeout < 10 ? "0" : "")\(timeout))", false)  // the seed's %.2d
                timeout -= 1
            }
        }
    }

    @Test(
        "S1 (seed 003): the SMS countdown reads Resend (60) at the press, (01) at 59 s, Send at 60 s; a second press is ignored"
    )
    func smsCountdownOnAGCDTimer() {
        Scene.run { scene in
            var shown: [String] = []
            let countdown = SMSCountdown { title, enabled in
                shown.append("\(scene.milliseconds): \(title)\(enabled ? "" : ", disabled")")
            }
            countdown.startCountdown(on: scene.loop)
            scene.loop.run(until: scene.date(in: 0.5))
            countdown.startCountdown(on: scene.loop)  // pressed again while counting: no second timer
            scene.loop.run(until: scene.date(in: 61))
            let counting = (0..<60).map { second in
                "\(second * 1_000): Resend (\(60 - second < 10 ? "0" : "")\(60 - second)), disabled"
            }
            #expect(shown == counting + ["60000: Send"])
            #expect(scene.milliseconds == 60_000)  // the run ended with the cancelled timer
            #expect(scene.loop.limitDate(forMode: .default) == nil)
        }
    }

    /// Seed 002's GCDTimer owner: a dispatch timer whose handler holds the owner weakly, cancelled
    /// in the owner's `deinit` so that it runs for the object's whole life and no longer.
    final class Poller {
        private(set) var timer: DispatchTimer?
        private(set) var polls = 0
        let onDeinit: () -> Void

        init(onDeinit: @escaping () -> Void) {
            self.onDeinit = onDeinit
        }

        func start(on loop: RunLoop) {
            let timer = DispatchTimer(runLoop: loop.base) { [weak self] _ in self?.polls += 1 }
            timer.schedule(deadline: .now, repeating: .seconds(2))  // DISPATCH_TIME_NOW, every 2 s
            timer.resume()
            self.timer = timer
        }

        deinit {
            timer?.cancel()
            onDeinit()
        }
    }

    @Test("L2e (seed 002): a GCD timer cancelled in its owner's deinit runs for the owner's life, then is gone")
    func dispatchTimerCancelledInDeinit() {
        Scene.run { scene in
            var deinitRan = false
            var poller: Poller? = Poller { deinitRan = true }
            poller?.start(on: scene.loop)
            weak let timer = poller?.timer
            scene.loop.run(until: scene.date(in: 4.5))
            #expect(poller?.polls == 3)  // at 0, 2 and 4 s
            poller = nil
            #expect(deinitRan)  // the handler's weak capture let the owner go
            #expect(timer == nil)  // cancelled and released
            #expect(scene.loop.limitDate(forMode: .default) == nil)
        }
    }

    @Test(
        "G6 (seeds 002, 003): on the main loop, dispatch_after runs while dragging and cannot be taken back; a delayed perform waits for the drag and can be cancelled",
        .tags(.process))
    func dispatchAfterVersusDelayedPerform() throws {
        try #require(BuiltProduct.isBuilt("foundation-compat-probe"), "build foundation-compat-probe first")
        let outcome = try ChildProcess.run(
            BuiltProduct.path("foundation-compat-probe"), ["dispatch-after"], timeout: .seconds(60))
        try #require(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.output.split(separator: "\n").map(String.init) == [
                "while dragging: [\"dispatch_after\"]",
                "after the drag: [\"dispatch_after\", \"perform after delay\"]",
                "after cancelling the performs: [\"dispatch_after\"]",
            ])
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
