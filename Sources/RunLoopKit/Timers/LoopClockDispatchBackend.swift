import Synchronization

/// A ``DispatchTimer`` on the clock of a run loop whose time can jump or stand still (a
/// ``VirtualClock`` or a ``TimeControl``), with libdispatch's semantics: coalesced
/// ticks (C-G4), handlers that never overlap and ticks counted while suspended (C-G5), a schedule
/// that replaces pending ticks (C-G3), and a cancel handler that runs once, after any suspension (C-G7).
///
/// Its ticks come from a run loop timer in the common modes (C-M12, C-G10), so the tracking mode, once
/// common, does not pause them (G1).
final class LoopClockDispatchBackend: DispatchTimerBackend {
    private let clock: ClockKind
    /// The loop's clock, read for the timer's own ``ClockKind``.
    private let loopClock: TimeSource
    /// Not owned: a timer that outlives its loop stops ticking.
    @LoopReference private var runLoop: RunLoop?
    private var handler: ((DispatchTimer.Event) -> Void)?
    private var ticker: Timer?
    /// The next tick on the timer's own clock (ns), `nil` when none is due.
    private var target: Int64?
    private var interval: Int64?
    private var isActive = false
    private var isSuspended = false
    private var isCancelled = false
    private var cancelHandler: (@Sendable () -> Void)?
    /// Cleared in `deinit`, so the clock's change observer (on any thread) knows to drop itself.
    private let liveness = Liveness()

    init(clock: ClockKind, runLoop: RunLoop, handler: @escaping (DispatchTimer.Event) -> Void) {
        self.clock = clock
        loopClock = runLoop.timeSource
        self.runLoop = runLoop
        self.handler = handler
        // A simulated sleep or wall jump moves the timer's clock apart from uptime, and a change of
        // a controlled clock moves every deadline: re-arm after each.
        let rearm = LoopBound({ [weak self] in self?.arm() }, on: runLoop)
        let handle = runLoop.handle
        if clock != .uptime, let virtualClock = loopClock.virtualClock {
            virtualClock.observeSleep { handle.execute(wake: true) { _ in rearm.value() } }
        }
        if let control = loopClock.timeControl {
            let liveness = liveness
            control.observeChanges {
                guard liveness.isAlive.load(ordering: .acquiring) else { return false }
                handle.execute(wake: true) { _ in rearm.value() }
                return true
            }
        }
    }

    deinit {
        liveness.isAlive.store(false, ordering: .releasing)
        ticker?.invalidate()
    }

    func schedule(deadline: DispatchTimer.Deadline, interval: Int64?, leeway: Int64) {
        let now = loopClock.now(clock).nanoseconds
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
        let ahead = max(target - loopClock.now(clock).nanoseconds, 0)
        // Wall time may run at another rate than uptime on a virtual clock.
        let uptimeAhead = loopClock.virtualClock?.uptimeUntil(clock, movesBy: ahead) ?? ahead
        let fireDate = runLoop.now + .nanoseconds(uptimeAhead)
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
        let now = loopClock.now(clock).nanoseconds
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

/// Whether an object still exists, readable from any thread.
private final class Liveness: Sendable {
    let isAlive = Atomic<Bool>(true)
}
