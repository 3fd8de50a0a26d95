/// A run loop's clock as a Swift `Clock`: readings of one ``ClockKind`` of the loop's
/// ``TimeSource`` (the kernel's, virtual or controlled), and sleeps that are one-shot timers of
/// the loop in chosen modes (rule C-X2). Get one from ``RunLoop/Handle/clock(_:inModes:)``.
///
/// A deadline on the continuous or wall clock becomes an uptime deadline when the sleep starts, at
/// the same distance ahead: a machine sleep or a wall-clock jump during the wait does not move it.
///
/// ```swift
/// let clock = loop.handle.clock(inModes: [.default])
/// try await clock.sleep(for: .milliseconds(500))     // pauses while the loop tracks
/// let elapsed = try await clock.measure { try await work() }
/// ```
public struct LoopClock: Clock {
    /// The loop that serves the sleeps.
    let handle: RunLoop.Handle
    /// Which of the loop's clocks ``now`` reads and deadlines are on.
    let kind: ClockKind
    /// The modes whose runs let sleeps end.
    let modes: [RunLoop.Mode]

    /// The current reading of the loop's clock of the kind it was made for.
    public var now: Instant { handle.timeSource.now(kind) }

    /// One nanosecond: instants are integer nanoseconds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Sleeps until `deadline` of the clock, in the modes it was made for; see
    /// ``RunLoop/Handle/sleep(until:tolerance:inModes:file:line:)``.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let uptimeDeadline = kind == .uptime ? deadline : handle.timeSource.now(.uptime) + now.duration(to: deadline)
        try await handle.sleep(until: uptimeDeadline, tolerance: tolerance, inModes: modes)
    }
}
