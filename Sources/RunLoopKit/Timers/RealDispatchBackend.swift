import Dispatch
import Glibc

/// A ``DispatchTimer`` on libdispatch's `DispatchSourceTimer`.
final class RealDispatchBackend: DispatchTimerBackend {
    private let source: DispatchSourceTimer
    private let clock: ClockKind

    private let onCancel: @Sendable () -> Void
    private let deliver: @Sendable (DispatchTimer.Event) -> Void

    /// A timer delivering each event to `deliver` on `queue`; `onCancel` runs when it is cancelled.
    init(
        clock: ClockKind, queue: DispatchQueue, onCancel: @escaping @Sendable () -> Void = {},
        deliver: @escaping @Sendable (DispatchTimer.Event) -> Void
    ) {
        self.clock = clock
        self.onCancel = onCancel
        self.deliver = deliver
        source = DispatchSource.makeTimerSource(queue: queue)
        // The handler holds this backend (and through it the source) until libdispatch drops it at
        // cancellation, which the wrapper always performs before release. Capturing one object, the
        // closure needs no context of its own: one allocation less per timer.
        source.setEventHandler { [self] in deliverEvent() }
    }

    private func deliverEvent() {
        deliver(DispatchTimer.Event(ticks: Int(source.data)))
    }

    func schedule(deadline: DispatchTimer.Deadline, interval: Int64?, leeway: Int64) {
        let repeating: DispatchTimeInterval = interval.map { .nanoseconds(Int(clamping: $0)) } ?? .never
        let leewayInterval = DispatchTimeInterval.nanoseconds(Int(clamping: leeway))
        let ahead: Int64
        switch deadline {
        case .now: ahead = 0
        case .after(let duration): ahead = max(duration.nanoseconds, 0)
        case .at(let instant): ahead = max(SystemClock.now(clock).duration(to: instant).nanoseconds, 0)
        }
        switch clock {
        case .uptime:
            let start: DispatchTime = ahead == 0 ? .now() : .now() + .nanoseconds(Int(clamping: ahead))
            source.schedule(deadline: start, repeating: repeating, leeway: leewayInterval)
        case .continuous, .wall:
            // libdispatch on Linux has no CLOCK_BOOTTIME timers: the wall clock also counts through sleep.
            source.schedule(
                wallDeadline: .now() + .nanoseconds(Int(clamping: ahead)), repeating: repeating,
                leeway: leewayInterval)
        }
    }

    func activate() { source.activate() }
    func suspend() { source.suspend() }
    func resume() { source.resume() }

    func cancel(then handler: (@Sendable () -> Void)?) {
        if let handler { source.setCancelHandler(handler: handler) }
        source.cancel()
        onCancel()
    }
}
