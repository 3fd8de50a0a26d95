/// A ``VirtualClock`` as a Swift `Clock` (rule C-X2): its sleeps are timers of the loop made on it,
/// so they end in deadline order as the loop moves the clock, the same way every run.
///
/// ```swift
/// let clock = VirtualClock()
/// let loop = RunLoop(timeSource: .virtual(clock))
/// Task(executorPreference: loop.taskExecutor) { try await clock.sleep(for: .seconds(5)) }
/// loop.run(mode: .default, until: loop.now + .seconds(10))   // returns at once in real time
/// ```
extension VirtualClock: Clock {
    /// The uptime reading.
    public var now: Instant { now(.uptime) }

    /// One nanosecond: instants are integer nanoseconds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Sleeps until `deadline` (uptime) as a timer in the common modes of the first loop made on
    /// this clock (``RunLoop/Handle/sleep(until:tolerance:inModes:file:line:)``); stops the program when no
    /// loop runs on it.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await servingLoop.loop(of: "VirtualClock").sleep(until: deadline, tolerance: tolerance)
    }
}
