/// A run loop's clock as a Swift `Clock`: readings of one ``ClockKind`` of the loop's
/// ``RunLoopClock`` (the kernel's, virtual or controlled), and sleeps that are one-shot timers of
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
    public let handle: RunLoop.Handle
    /// Which of the loop's clocks ``now`` reads and deadlines are on.
    public let kind: ClockKind
    /// The modes whose runs let sleeps end.
    public let modes: [RunLoop.Mode]

    /// The current reading of the loop's ``kind`` clock.
    public var now: Instant { handle.clock.now(kind) }

    /// One nanosecond: instants are integer nanoseconds.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Sleeps until `deadline` of the ``kind`` clock; see ``RunLoop/Handle/sleep(until:tolerance:inModes:)``.
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`): called by an actor bound to the
    /// loop, or by a task that prefers the loop's ``RunLoop/Handle/taskExecutor``, it reads the clock
    /// and adds its timer on the loop's thread, at once. Called through the `Clock` protocol
    /// (generic code, `any Clock`, `Task.sleep(for:clock:)`), it runs on the task's executor
    /// instead — the global one for a task with no executor preference — and the timer is added at
    /// the loop's next pass; on a virtual clock the loop may have moved on by then (rule C-X2).
    nonisolated(nonsending) public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let uptimeDeadline = kind == .uptime ? deadline : handle.clock.now(.uptime) + now.duration(to: deadline)
        try await handle.sleep(until: uptimeDeadline, tolerance: tolerance, inModes: modes)
    }

    /// Sleeps for `duration` from ``now``, read on the caller's executor; see ``sleep(until:tolerance:)``.
    nonisolated(nonsending) public func sleep(for duration: Duration, tolerance: Duration? = nil) async throws {
        try await sleep(until: now + duration, tolerance: tolerance)
    }
}
