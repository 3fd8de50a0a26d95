import Synchronization

/// A clock whose time moves only when told: the run loop's wait jumps it to the next deadline,
/// and a callout declares simulated work with ``busy(_:)``.
///
/// All three ``ClockKind``s advance together, except during a simulated machine sleep
/// (``sleep(_:)``), which advances continuous and wall time but not uptime (decisions.md 9).
/// Safe to use from any thread.
///
/// ```swift
/// let clock = VirtualClock()
/// let loop = RunLoop(clock: .virtual(clock))
/// Timer.scheduledTimer(withInterval: .seconds(1), repeats: false, on: loop) { _ in clock.busy(.milliseconds(350)) }
/// loop.run(until: loop.now + .seconds(2))   // returns at once in real time
/// ```
public final class VirtualClock: Sendable {
    // Each reading is an atomic that a read loads without a lock (a run loop reads uptime several
    // times a pass); the writers, which move all three, take `writer` so that they never interleave.
    private let uptime: Atomic<Int64>
    private let continuous: Atomic<Int64>
    private let wall: Atomic<Int64>
    private let writer = Mutex(())
    private let sleepObservers = Mutex<[@Sendable () -> Void]>([])
    /// The loop whose timers serve the clock's sleeps (``sleep(until:tolerance:)``).
    let servingLoop = ServingLoop()

    /// The wall-clock origin of a new virtual clock: 2026-01-01T00:00:00Z.
    public static let defaultWallStart = Instant(nanoseconds: 1_767_225_600 * Nanoseconds.perSecond)

    /// Creates a clock whose uptime and continuous time start at zero and whose wall time starts at `wallStart`.
    public init(wallStart: Instant = VirtualClock.defaultWallStart) {
        uptime = Atomic(0)
        continuous = Atomic(0)
        wall = Atomic(wallStart.nanoseconds)
        CreationSite.virtualClock(exists: true)
    }

    deinit {
        CreationSite.virtualClock(exists: false)
    }

    /// The current reading of `kind`.
    public func now(_ kind: ClockKind = .uptime) -> Instant {
        switch kind {
        case .uptime: Instant(nanoseconds: uptime.load(ordering: .acquiring))
        case .continuous: Instant(nanoseconds: continuous.load(ordering: .acquiring))
        case .wall: Instant(nanoseconds: wall.load(ordering: .acquiring)).read(from: .wall)
        }
    }

    /// Declares `duration` of simulated work: every clock advances by it.
    ///
    /// Call it from a callout to make the callout "take" that long, which is how late-fire cases
    /// (runloop-reference C-T6) are reproduced deterministically. Negative durations are ignored.
    public func busy(_ duration: Duration) {
        let delta = max(duration.nanoseconds, 0)
        writer.withLock { _ in move(uptime: delta, continuous: delta, wall: delta) }
    }

    /// Simulates the machine sleeping for `duration`: continuous and wall time advance, uptime does not.
    public func sleep(_ duration: Duration) {
        let delta = max(duration.nanoseconds, 0)
        writer.withLock { _ in move(uptime: 0, continuous: delta, wall: delta) }
        for observer in sleepObservers.withLock({ $0 }) { observer() }
    }

    /// Calls `observer` after every simulated machine sleep (virtual dispatch timers on the
    /// continuous and wall clocks re-arm themselves with it).
    func observeSleep(_ observer: @escaping @Sendable () -> Void) {
        sleepObservers.withLock { $0.append(observer) }
    }

    /// Advances every clock so that uptime reads `instant`; earlier instants are ignored.
    ///
    /// The run loop's virtual wait calls this to jump to its next deadline.
    public func advance(toUptime instant: Instant) {
        writer.withLock { _ in
            let delta = instant.nanoseconds - uptime.load(ordering: .relaxed)
            guard delta > 0 else { return }
            move(uptime: delta, continuous: delta, wall: delta)
        }
    }

    /// Adds the deltas to the readings; only while holding `writer`.
    private func move(uptime deltaUptime: Int64, continuous deltaContinuous: Int64, wall deltaWall: Int64) {
        _ = uptime.wrappingAdd(deltaUptime, ordering: .releasing)
        _ = continuous.wrappingAdd(deltaContinuous, ordering: .releasing)
        _ = wall.wrappingAdd(deltaWall, ordering: .releasing)
    }
}
