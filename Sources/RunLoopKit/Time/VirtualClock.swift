import Synchronization
internal import TimeUnits

/// A clock whose time moves only when told: the run loop's wait jumps it to the next deadline,
/// and a callout declares simulated work with ``busy(_:)``.
///
/// All three ``ClockKind``s advance together, except during a simulated machine sleep
/// (``sleepMachine(for:)``), which advances continuous and wall time but not uptime (decisions.md
/// 9), and when a test sets wall time or its rate (RunLoopKitTesting's `setWall(to:inMode:)` and
/// `setWallRate(_:per:inMode:)` of a loop), which move it alone. Safe to use from any thread.
///
/// ```swift
/// let clock = VirtualClock()
/// let loop = RunLoop(timeSource: .virtual(clock))
/// Timer.scheduledTimer(withInterval: .seconds(1), repeats: false, on: loop) { _ in clock.busy(.milliseconds(350)) }
/// loop.run(until: loop.now + .seconds(2))   // returns at once in real time
/// ```
public final class VirtualClock: Sendable {
    /// How fast wall time moves against uptime (``setWallRate(_:per:)``).
    private struct WallRate {
        /// Wall time per uptime, `numerator / denominator`.
        var numerator: Int64 = 1
        var denominator: Int64 = 1
        /// The part of a wall nanosecond carried from the last move, in `1 / denominator`ths.
        var carry: Int64 = 0

        /// The wall time that passes while uptime moves by `delta`; `nil` if too large to scale.
        mutating func wallDelta(forUptime delta: Int64) -> Int64? {
            if (numerator, denominator) == (1, 1) { return delta }
            let (scaled, overflow) = delta.multipliedReportingOverflow(by: numerator)
            guard !overflow else { return nil }
            let carried = carry + scaled % denominator
            carry = carried % denominator
            return scaled / denominator + carried / denominator
        }
    }

    // Each reading is an atomic that a read loads without a lock (a run loop reads uptime several
    // times a pass); the writers take `writer`, which also holds the wall rate, so that they never
    // interleave.
    private let uptime: Atomic<Int64>
    private let continuous: Atomic<Int64>
    private let wall: Atomic<Int64>
    private let writer = Mutex(WallRate())
    private let sleepObservers = Mutex<[@Sendable () -> Void]>([])
    /// The loop whose timers serve the clock's sleeps (``sleep(until:tolerance:)``).
    let servingLoop = ServingLoop()

    /// The wall-clock origin of a new virtual clock: 2026-01-01T00:00:00Z.
    @usableFromInline package static let defaultWallStart = Instant(nanoseconds: 1_767_225_600 * Nanoseconds.perSecond)

    /// How many virtual clocks exist: timers and sleeps keep where they were made while one does
    /// (``Timer/creationSite``), for the diagnostics of tests; a program on the system clock keeps
    /// none, and its timers stay as small as they were.
    private static let count = Atomic<Int>(0)

    /// Whether a virtual clock exists in the process.
    static var anyExists: Bool { count.load(ordering: .relaxed) > 0 }

    /// Creates a clock whose uptime and continuous time start at zero and whose wall time starts at
    /// `wallStart`, by default 2026-01-01T00:00:00Z.
    public init(wallStart: Instant = VirtualClock.defaultWallStart) {
        uptime = Atomic(0)
        continuous = Atomic(0)
        wall = Atomic(wallStart.nanoseconds)
        Self.count.add(1, ordering: .relaxed)
    }

    deinit {
        Self.count.subtract(1, ordering: .relaxed)
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
        writer.withLock { rate in move(byUptime: delta, rate: &rate) }
    }

    /// Simulates the machine sleeping for `duration`: continuous and wall time advance, uptime does
    /// not. Negative durations are ignored.
    public func sleepMachine(for duration: Duration) {
        let delta = max(duration.nanoseconds, 0)
        writer.withLock { _ in
            _ = continuous.wrappingAdd(delta, ordering: .releasing)
            _ = wall.wrappingAdd(delta, ordering: .releasing)
        }
        for observer in sleepObservers.withLock({ $0 }) { observer() }
    }

    /// Sets wall time to `instant`, earlier or later, as a clock set by hand or stepped by NTP is:
    /// uptime and continuous time do not move.
    package func setWall(to instant: Instant) {
        writer.withLock { _ in wall.store(instant.nanoseconds, ordering: .releasing) }
        for observer in sleepObservers.withLock({ $0 }) { observer() }
    }

    /// Calls `observer` after every simulated machine sleep and wall-clock change (virtual dispatch
    /// timers on the continuous and wall clocks re-arm themselves with it).
    func observeSleep(_ observer: @escaping @Sendable () -> Void) {
        sleepObservers.withLock { $0.append(observer) }
    }

    /// Advances every clock so that uptime reads `instant`; earlier instants are ignored.
    ///
    /// The run loop's virtual wait calls this to jump to its next deadline.
    package func advance(to instant: Instant) {
        writer.withLock { rate in
            let delta = instant.nanoseconds - uptime.load(ordering: .relaxed)
            guard delta > 0 else { return }
            move(byUptime: delta, rate: &rate)
        }
    }

    /// From now on wall time moves `numerator / denominator` as fast as uptime (each clamped to
    /// 1…1000), as a wall clock slewed by NTP or drifting does; `(1, 1)` again keeps them together.
    package func setWallRate(_ numerator: Int64, per denominator: Int64) {
        writer.withLock { rate in
            rate = WallRate(numerator: min(max(numerator, 1), 1_000), denominator: min(max(denominator, 1), 1_000))
        }
        for observer in sleepObservers.withLock({ $0 }) { observer() }
    }

    /// The uptime that must pass for `kind` to move on by `ahead` nanoseconds (at least zero):
    /// `ahead` itself but for wall time at another rate than uptime's.
    func uptimeUntil(_ kind: ClockKind, movesBy ahead: Int64) -> Int64 {
        guard ahead > 0 else { return 0 }
        return writer.withLock { rate in
            guard kind == .wall, (rate.numerator, rate.denominator) != (1, 1) else { return ahead }
            // The least u with (u * numerator + carry) / denominator >= ahead: the ceiling of
            // (ahead * denominator - carry) / numerator. A deadline too far to scale is far anyway.
            let (needed, overflow) = ahead.multipliedReportingOverflow(by: rate.denominator)
            guard !overflow else { return ahead }
            let short = needed - rate.carry
            return max(short / rate.numerator + (short % rate.numerator > 0 ? 1 : 0), 0)
        }
    }

    /// Moves every reading by `delta` of uptime, wall time at `rate`; only while holding `writer`.
    /// Holding it, no other write can come between a load and its store: a store each, not an
    /// atomic add (a virtual day moves the clock 5 million times).
    private func move(byUptime delta: Int64, rate: inout WallRate) {
        uptime.store(uptime.load(ordering: .relaxed) &+ delta, ordering: .releasing)
        continuous.store(continuous.load(ordering: .relaxed) &+ delta, ordering: .releasing)
        if let wallDelta = rate.wallDelta(forUptime: delta) {
            wall.store(wall.load(ordering: .relaxed) &+ wallDelta, ordering: .releasing)
        } else {
            wall.store(.max, ordering: .releasing)
        }
    }
}
