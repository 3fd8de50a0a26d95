import RunLoopKit

// Objective-C's target–action idioms (L1, L2b–L2d) on RunLoopKit's timers, without the module's
// Foundation-named `Timer` and `RunLoop`.
import class RunLoopKitFoundationCompat.WeakProxy

/// A lifetime-lab "screen": an object that owns a repeating one-second timer, as a view controller
/// would, built with one ``LabStrategy``. Its `deinit` and its ticks are what the lab counts.
final class LabScreen {
    /// The timer as the lab sees it: whether it is still scheduled, and how to stop it.
    struct TimerProbe {
        /// Whether the timer can still fire.
        let isScheduled: () -> Bool
        /// Invalidates (cancels) the timer.
        let stop: () -> Void
    }

    /// The tick period of every screen's timer.
    static let interval: Duration = .seconds(1)

    let strategy: LabStrategy
    private let counts: LabCounts
    /// Set when the lab closes the screen: a tick after that is a fire into a closed screen.
    var isClosed = false
    private var timer: Timer?
    private var dispatchTimer: DispatchTimer?

    /// A screen of `strategy` whose timer runs on `loop` in the default mode (M1); `counts` learns
    /// of its ticks and its `deinit`.
    init(strategy: LabStrategy, loop: RunLoop, counts: LabCounts) {
        self.strategy = strategy
        self.counts = counts
        let first = loop.now + Self.interval
        let interval = Self.interval
        switch strategy {
        case .strongTarget:
            timer = Timer(fireAt: first, interval: interval, repeats: true, target: self, action: LabScreen.tick)
        case .weakBlock:
            timer = Timer(fireAt: first, interval: interval, repeats: true) { [weak self] in self?.tick($0) }
        case .blockInUserInfo:
            timer = Timer.withBlockInUserInfo(fireAt: first, interval: interval, repeats: true) { [weak self] in
                self?.tick($0)
            }
        case .weakTarget:
            timer = Timer.weakTarget(self, fireAt: first, interval: interval, repeats: true, action: LabScreen.tick)
        case .weakProxy:
            timer = Timer(
                fireAt: first, interval: interval, repeats: true, target: WeakProxy(self),
                action: WeakProxy.forward(LabScreen.tick))
        case .dispatchTimer:
            let dispatch = DispatchTimer(runLoop: loop) { [weak self] _ in self?.tick(nil) }
            dispatch.schedule(deadline: .after(interval), repeating: interval)
            dispatch.resume()
            dispatchTimer = dispatch
        case .strongCapture:
            timer = Timer(fireAt: first, interval: interval, repeats: true) { timer in self.tick(timer) }
        }
        if let timer { loop.add(timer, forMode: .default) }
        counts.opened += 1
    }

    deinit {
        counts.freed += 1
        counts.changed()
        // The weak intermediate target (L2c) invalidates itself at its next fire; the others are
        // stopped by their owner, as a view controller does. A dispatch timer cancels on release (L2e).
        if strategy != .weakTarget { timer?.invalidate() }
    }

    /// The screen's timer, seen without keeping the screen alive.
    var probe: TimerProbe {
        if let timer {
            return TimerProbe(isScheduled: { timer.isValid }, stop: { timer.invalidate() })
        }
        weak let dispatch = dispatchTimer
        return TimerProbe(
            isScheduled: { dispatch.map { !$0.isCancelled } ?? false }, stop: { dispatch?.cancel() })
    }

    private func tick(_: Timer?) {
        counts.fires += 1
        if isClosed { counts.firesAfterClose += 1 }
        counts.changed()
    }
}

/// What happened to the screens of one strategy, counted where it happens: in their initialisers,
/// `deinit`s and timer callouts.
final class LabCounts {
    var opened = 0
    var freed = 0
    var fires = 0
    var firesAfterClose = 0
    /// Called after a tick or a `deinit`, so the lab view can redraw.
    var onChange: () -> Void = {}

    /// Reports a tick or a `deinit`.
    func changed() { onChange() }
}
