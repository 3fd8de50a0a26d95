import Dispatch

/// A GCD-style timer (`DispatchSourceTimer`) that is safe to use in any order (seeds G1–G5).
///
/// Deadline, repeat interval and leeway are set separately with ``schedule(deadline:repeating:leeway:)``;
/// a deadline of ``Deadline/now`` fires at once, then every interval (G2) — unlike a run loop timer.
/// Missed ticks are coalesced into one event whose ``Event/ticks`` says how many (libdispatch's
/// `data`, C-G4); handlers never overlap (C-G5). A new timer is suspended until ``resume()`` (G4).
///
/// Every order of ``suspend()``, ``resume()``, ``cancel(handler:)`` and release is safe (decisions.md 10):
/// suspensions are counted and balanced before release, a never-resumed timer is activated before
/// release, and resuming more often than suspended does nothing — libdispatch itself traps on
/// those (runloop-reference section 0 item 9).
///
/// Two deliveries: on a dispatch queue (default: a background queue; the handler is `@Sendable`),
/// or onto a run loop in its common modes (the handler runs on the loop's thread). A run loop on a
/// ``VirtualClock`` gets a virtual backend with the same semantics, so scenes are deterministic.
///
/// ```swift
/// let timer = DispatchTimer(clock: .continuous, runLoop: loop) { event in
///     countdown.show(remaining: secondsLeft())   // on the loop's thread
/// }
/// timer.schedule(deadline: .now, repeating: .seconds(1))
/// timer.resume()
/// ```
public final class DispatchTimer {
    /// One delivery of the handler, and an element of ``events``. It follows libdispatch's
    /// coalescing rule (C-G4): ticks missed while the handler could not run — the loop or queue busy,
    /// the timer suspended, a mode that is not common — are not delivered back to back but add up
    /// in one event's ``ticks``.
    public struct Event: Sendable, Equatable {
        /// Ticks since the last delivery: 1, or more when ticks were missed (libdispatch's `data`, C-G4).
        public var ticks: Int
    }

    /// When the first tick is due.
    public enum Deadline: Sendable, Equatable {
        /// At once (`DispatchTime.now()`, G2).
        case now
        /// After `Duration` from now, on the timer's clock.
        case after(Duration)
        /// At an instant of the timer's clock.
        case at(Instant)
    }

    private let backend: any DispatchTimerBackend
    /// Where ``events`` listens, for a timer delivered onto a run loop (rule C-X3).
    let tap: EventTap?
    private var suspensions = 0
    private var isStarted = false
    /// Whether ``cancel(handler:)`` was called.
    public private(set) var isCancelled = false

    /// A timer delivering on `queue` (a background queue by default).
    ///
    /// `clock` picks the clock deadlines are on (decisions.md 9). On Linux, libdispatch offers uptime
    /// and wall clocks only: a continuous-clock timer is armed on the wall clock at the same distance
    /// ahead, so it keeps counting through a machine sleep as `CLOCK_BOOTTIME` does.
    public init(
        clock: ClockKind = .uptime, queue: DispatchQueue = .global(),
        handler: @escaping @Sendable (Event) -> Void
    ) {
        backend = RealDispatchBackend(clock: clock, queue: queue, deliver: handler)
        tap = nil
    }

    /// A timer whose handler runs on `runLoop`'s thread in its common modes only (C-M12, C-G10): it
    /// waits while the loop runs a mode that is not common and catches up, coalesced, when the loop
    /// returns to one; ticks missed while the loop was busy also come as one event (C-G4). G1
    /// (scrolling never pauses it) holds because the tracking mode is common. On a ``VirtualClock``
    /// or a ``TimeControl`` it runs on the loop's clock: virtual, paused, stepped or slowed down.
    public init(clock: ClockKind = .uptime, runLoop: RunLoop, handler: @escaping (Event) -> Void) {
        let tap = EventTap(loop: runLoop)
        self.tap = tap
        let handler: (Event) -> Void = { event in
            handler(event)
            tap.observer?(event)
        }
        if runLoop.timeSource.isSteered {
            backend = LoopClockDispatchBackend(clock: clock, runLoop: runLoop, handler: handler)
        } else {
            let delivery = LoopDelivery(handler: handler, on: runLoop)
            backend = RealDispatchBackend(
                clock: clock, queue: DispatchQueue(label: "RunLoopKit.DispatchTimer"),
                onCancel: delivery.cancel, deliver: delivery.post)
        }
    }

    deinit {
        // decisions.md 10: never release a suspended or never-activated source.
        // Only the first of nested suspensions reaches libdispatch, and only once started.
        if !isCancelled { backend.cancel() }
        if !isStarted {
            backend.activate()
        } else if suspensions > 0 {
            backend.resume()
        }
    }

    /// Replaces the schedule: first tick at `deadline`, then every `repeating` (`nil` = one-shot),
    /// with `leeway` (clamped to half the interval, and unused on Linux, C-G1, C-G8). Pending ticks
    /// are dropped (C-G3). May be called at any time, including from the handler.
    public func schedule(deadline: Deadline, repeating interval: Duration? = nil, leeway: Duration = .zero) {
        guard !isCancelled else { return }
        var repeatInterval = interval.map { max($0.nanoseconds, 1) }
        if let value = repeatInterval, value == Int64.max { repeatInterval = nil }
        let clampedLeeway = min(max(leeway.nanoseconds, 0), (repeatInterval ?? Int64.max) / 2)
        backend.schedule(deadline: deadline, interval: repeatInterval, leeway: clampedLeeway)
    }

    /// Starts a new timer, or undoes one ``suspend()``; extra calls do nothing (G4, decisions.md 10).
    public func resume() {
        if suspensions > 0 {
            suspensions -= 1
            if isStarted && suspensions == 0 { backend.resume() }
        } else if !isStarted {
            isStarted = true
            backend.activate()
        }
    }

    /// Holds the timer; ticks meanwhile are coalesced into one event after the matching ``resume()`` (C-G5).
    public func suspend() {
        guard !isCancelled else { return }
        suspensions += 1
        if isStarted && suspensions == 1 { backend.suspend() }
    }

    /// Stops the timer for good; a running handler finishes, no event follows, and `handler` (if
    /// any) runs once, after the timer is resumed if it is suspended (C-G7).
    public func cancel(handler: (@Sendable () -> Void)? = nil) {
        guard !isCancelled else { return }
        isCancelled = true
        backend.cancel(then: handler)
    }
}

/// What a ``DispatchTimer`` needs from its implementation; the wrapper keeps every call balanced.
protocol DispatchTimerBackend: AnyObject {
    func schedule(deadline: DispatchTimer.Deadline, interval: Int64?, leeway: Int64)
    func activate()
    func suspend()
    func resume()
    func cancel(then handler: (@Sendable () -> Void)?)
}

extension DispatchTimerBackend {
    func cancel() { cancel(then: nil) }
}
