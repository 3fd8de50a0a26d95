extension DispatchTimer {
    /// The timer's events as an asynchronous sequence, for a timer delivered onto a run loop
    /// (``init(clock:runLoop:handler:)``), made on that loop's thread (rule C-X3). Each element is
    /// libdispatch's coalesced event (C-G4): ticks missed while the loop was busy, in another mode or
    /// while the consumer had not taken the last event add up in ``Event/ticks``. The handler still
    /// runs first. Ending the iteration (or cancelling its task) cancels the timer; schedule and
    /// resume it as usual.
    ///
    /// ```swift
    /// let timer = DispatchTimer(runLoop: loop) { _ in }
    /// timer.schedule(deadline: .now, repeating: .seconds(1))
    /// timer.resume()
    /// let events = timer.events
    /// Task(executorPreference: loop.taskExecutor) {
    ///     for await event in events { advance(by: event.ticks) }
    /// }
    /// ```
    public var events: some AsyncSequence<Event, Never> & Sendable {
        guard let tap, let loop = tap.loop else {
            preconditionFailure("DispatchTimer.events: only a timer delivered onto a run loop that exists has events")
        }
        let timer = LoopBound(self, on: loop)
        let merge: @Sendable (inout Event, Event) -> Void = { pending, next in pending.ticks += next.ticks }
        return TimeSequence(handle: loop.handle, merge: merge) { _, deliver in
            let timer = timer.value
            timer.tap?.observer = deliver
            return {
                timer.tap?.observer = nil
                timer.cancel()
            }
        }
    }

    /// The listener of ``events``; only touched on the timer's loop's thread.
    final class EventTap {
        @LoopReference var loop: RunLoop?
        var observer: ((Event) -> Void)?

        init(loop: RunLoop) {
            self.loop = loop
        }
    }
}
