/// A ``TimeControl`` as a Swift `Clock` (rule C-X2): its sleeps are timers of the loop made on it,
/// so pausing, advancing and slowing the clock apply to them as to every timer.
extension TimeControl: Clock {
    /// The uptime reading.
    public var now: Instant { now(.uptime) }

    /// One nanosecond: instants are integer nanoseconds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Sleeps until `deadline` (uptime) as a timer in the common modes of the first loop made on
    /// this clock (``RunLoop/Handle/sleep(until:tolerance:inModes:file:line:)``); stops the program when no
    /// loop runs on it.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await servingLoop.loop(of: "TimeControl").sleep(until: deadline, tolerance: tolerance)
    }
}
