extension RunLoop {
    /// One fire of a repeating run loop timer as an element of
    /// ``Handle/ticks(every:tolerance:inModes:)`` (rule C-X3). It follows CF's late-fire rule (C-T6):
    /// a timer that fires late fires once, and the grid points it missed are skipped, counted in
    /// ``missedTicks`` — never delivered back to back.
    public struct Tick: Sendable, Equatable {
        /// The grid point this fire serviced: first fire one interval after the iteration started,
        /// then every interval.
        public var fireDate: Instant
        /// When the loop fired it; later than ``fireDate`` by the loop's lateness.
        public var firedAt: Instant
        /// Grid points skipped since the previous element (C-T6), plus elements the consumer had not
        /// taken when the next came.
        public var missedTicks: Int
    }
}

extension RunLoop.Handle {
    /// A repeating timer of the loop as an asynchronous sequence: every `interval`, in `modes`
    /// (default: the common modes), with `tolerance` (C-T9); late fires skip missed grid points
    /// (C-T6, ``RunLoop/Tick/missedTicks``). Each iteration has its own timer, stopped when it ends
    /// (rule C-X3). In `[.default]` it pauses while the loop tracks (seed M2).
    ///
    /// ```swift
    /// for await tick in handle.ticks(every: .seconds(1), inModes: [.default]) {
    ///     render(at: tick.fireDate)
    /// }
    /// ```
    public func ticks(
        every interval: Duration, tolerance: Duration = .zero, inModes modes: [RunLoop.Mode] = [.common]
    ) -> some AsyncSequence<RunLoop.Tick, Never> & Sendable {
        tickSequence(every: interval, tolerance: tolerance, inModes: modes)
    }

    /// ``ticks(every:tolerance:inModes:)`` as the sequence it is, whose iterations tests look into.
    func tickSequence(
        every interval: Duration, tolerance: Duration, inModes modes: [RunLoop.Mode]
    ) -> TimeSequence<RunLoop.Tick> {
        let merge: @Sendable (inout RunLoop.Tick, RunLoop.Tick) -> Void = { pending, next in
            let missed = pending.missedTicks + next.missedTicks + 1
            pending = next
            pending.missedTicks = missed
        }
        return TimeSequence(handle: self, merge: merge) { loop, deliver in
            let clock = loop.timeSource
            let start = loop.now
            var previous = start.nanoseconds
            let timer = Timer(fireAt: start + interval, interval: interval, repeats: true) { timer in
                let serviced = timer.fireDate.nanoseconds
                let missed = Int((serviced - previous) / timer.interval.nanoseconds) - 1
                previous = serviced
                deliver(RunLoop.Tick(fireDate: timer.fireDate, firedAt: clock.now(.uptime), missedTicks: missed))
            }
            timer.tolerance = tolerance
            for mode in modes { loop.add(timer, forMode: mode) }
            return { timer.invalidate() }
        }
    }
}
