import Synchronization

/// Carries a libdispatch timer's events from its queue to a run loop's common modes.
///
/// Ticks that arrive while the loop is busy, or runs a mode that is not common, add up and reach the
/// handler as one event (C-G4, C-M12, C-G10), as they would on a queue: at most one delivery is
/// queued on the loop at a time, and it takes every tick counted until it runs. No event is
/// delivered after ``cancel()`` (C-G7).
final class LoopDelivery: Sendable {
    private let pendingTicks = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    private let loop: RunLoop.Handle
    private let handler: LoopBound<(DispatchTimer.Event) -> Void>

    /// Delivers to `handler` on `loop`'s thread; must be created on that thread.
    init(handler: @escaping (DispatchTimer.Event) -> Void, on loop: RunLoop) {
        self.loop = loop.handle
        self.handler = LoopBound(handler, on: loop)
    }

    /// Counts an event's ticks; queues a delivery unless one is already waiting. Any thread.
    @Sendable func post(_ event: DispatchTimer.Event) {
        guard !cancelled.load(ordering: .acquiring) else { return }
        guard pendingTicks.add(event.ticks, ordering: .acquiringAndReleasing).oldValue == 0 else { return }
        loop.performAndWake(inModes: [.common]) { self.deliver() }
    }

    /// Stops deliveries, including one already queued.
    @Sendable func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    private func deliver() {
        let ticks = pendingTicks.exchange(0, ordering: .acquiringAndReleasing)
        guard ticks > 0, !cancelled.load(ordering: .acquiring) else { return }
        handler.value(DispatchTimer.Event(ticks: ticks))
    }
}
