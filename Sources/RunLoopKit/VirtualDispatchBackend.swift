/// A ``DispatchTimer`` on a run loop's ``VirtualClock``, with libdispatch's semantics: coalesced
/// ticks (C-G4), handlers that never overlap and ticks counted while suspended (C-G5), a schedule
/// that replaces pending ticks (C-G3), and a cancel handler that runs once, after any suspension (C-G7).
///
/// Its ticks come from a run loop timer in the common modes (C-M12, C-G10), so the tracking mode, once
/// common, does not pause them (G1).
final class VirtualDispatchBackend: DispatchTimerBackend {
    private let clock: ClockKind
    private let virtualClock: VirtualClock
    /// Weak: a timer that outlives its loop stops ticking.
    private weak var runLoop: RunLoop?
    private var handler: ((DispatchTimer.Event) -> Void)?
    private var ticker: Timer?
    /// The next tick on the timer's own clock (ns), `nil` when none is due.
    private var target: Int64?
    private var interval: Int64?
    private var isActive = false
    private var isSuspended = false
    private var isCancelled = false
    private var cancelHandler: (@Sendable () -> Void)?

    init(
        clock: ClockKind, virtualClock: VirtualClock, runLoop: RunLoop, handler: @escaping (DispatchTimer.Event) -> Void
    ) {
        self.clock = clock
        self.virtualClock = virtualClock
        self.runLoop = runLoop
        self.handler = handler
        if clock != .uptime {
            // A simulated machine sleep moves this clock but not uptime: re-arm after one.
            let rearm = LoopBound({ [weak self] in self?.arm() }, on: runLoop)
            let handle = runLoop.handle
            virtualClock.observeSleep { handle.execute(wake: true) { _ in rearm.value() } }
        }
    }

    deinit {
        ticker?.invalidate()
    }

    func schedule(deadline: DispatchTimer.Deadline, interval: Int64?, leeway: Int64) {
        let now = virtualClock.now(clock).nanoseconds
        switch deadline {
        case .now: target = now
        case .after(let duration): target = now + max(duration.nanoseconds, 0)
        case .at(let instant): target = instant.nanoseconds
        }
        self.interval = interval
        arm()
    }

    func activate() {
        isActive = true
        arm()
        deliverCancelHandlerIfReady()
    }

    func suspend() {
        isSuspended = true
        ticker?.fireDate = .distantFuture
    }

    func resume() {
        isSuspended = false
        arm()
        deliverCancelHandlerIfReady()
    }

    func cancel(then handler: (@Sendable () -> Void)?) {
        isCancelled = true
        ticker?.invalidate()
        ticker = nil
        self.handler = nil
        cancelHandler = handler
        deliverCancelHandlerIfReady()
    }

    /// Points the run loop timer at the next tick, on the uptime axis.
    func arm() {
        guard isActive, !isSuspended, !isCancelled, let target, let runLoop else { return }
        let ahead = target - virtualClock.now(clock).nanoseconds
        let fireDate = runLoop.now + .nanoseconds(max(ahead, 0))
        if let ticker {
            ticker.fireDate = fireDate
        } else {
            let ticker = Timer(fireAt: fireDate, interval: .seconds(3_600), repeats: true) { [weak self] _ in
                self?.tick()
            }
            self.ticker = ticker
            // C-M12, C-G10: a timer delivered onto a run loop follows its common modes.
            runLoop.add(ticker, forMode: .common)
        }
    }

    private func tick() {
        guard let target, let handler, !isSuspended, !isCancelled else { return }
        let now = virtualClock.now(clock).nanoseconds
        guard now >= target else {
            arm()
            return
        }
        // C-G4: missed = (now - target) / interval + 1; the target moves past now on the grid.
        var ticks = 1
        if let interval {
            ticks = Int((now - target) / interval) + 1
            self.target = target + Int64(ticks) * interval
        } else {
            self.target = nil
            ticker?.fireDate = .distantFuture
        }
        handler(DispatchTimer.Event(ticks: ticks))
        // C-G5: ticks that fell due while the handler ran come as one event right after it.
        if self.target != nil { arm() }
    }

    private func deliverCancelHandlerIfReady() {
        guard isCancelled, isActive, !isSuspended, let cancelHandler, let runLoop else { return }
        self.cancelHandler = nil
        runLoop.perform(inModes: [.common], cancelHandler)
    }
}
