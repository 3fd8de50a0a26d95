/// A ``TimeControl`` as a Swift `Clock` (rule C-X2): its sleeps are timers of the loop made on it,
/// so pausing, stepping and slowing the clock apply to them as to every timer.
extension TimeControl: Clock {
    /// The uptime reading.
    public var now: Instant { now(.uptime) }

    /// One nanosecond: instants are integer nanoseconds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Sleeps until `deadline` (uptime) as a timer in the common modes of the first loop made on
    /// this clock (``RunLoop/Handle/sleep(until:tolerance:inModes:)``); stops the program when no
    /// loop runs on it.
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`): called by an actor bound to the
    /// loop, or by a task that prefers the loop's ``RunLoop/Handle/taskExecutor``, it adds its timer
    /// on the loop's thread, at once, so the run repeats exactly. Called through the `Clock` protocol
    /// (generic code, `any Clock`, `Task.sleep(for:clock:)`), it runs on the task's executor instead
    /// — the global one for a task with no executor preference — and the timer is added at the
    /// loop's next pass, by which time the loop may have moved its clock on: give such a task the
    /// loop's task executor (rule C-X2).
    nonisolated(nonsending) public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await servingLoop.loop(of: "TimeControl").sleep(until: deadline, tolerance: tolerance)
    }

    /// Sleeps for `duration` from ``now``, read on the caller's executor; see ``sleep(until:tolerance:)``.
    nonisolated(nonsending) public func sleep(for duration: Duration, tolerance: Duration? = nil) async throws {
        try await sleep(until: now + duration, tolerance: tolerance)
    }
}
