import Synchronization

/// A clock whose time moves only when told: the run loop's wait jumps it to the next deadline,
/// and a callout declares simulated work with ``busy(_:)``.
///
/// All three ``ClockKind``s advance together, except during a simulated machine sleep
/// (``sleep(_:)``), which advances continuous and wall time but not uptime (decisions.md 9), and
/// when wall time is set (``setWall(to:)``), which moves it alone, and while wall time runs at a
/// rate of its own (``setWallRate(_:per:)``).
/// Safe to use from any thread.
///
/// ```swift
/// let clock = VirtualClock()
/// let loop = RunLoop(clock: .virtual(clock))
/// Timer.scheduledTimer(withInterval: .seconds(1), repeats: false, on: loop) { _ in clock.busy(.milliseconds(350)) }
/// loop.run(until: loop.now + .seconds(2))   // returns at once in real time
/// ```
public final class VirtualClock: Sendable {
    private struct Readings {
        var uptime: Int64
        var continuous: Int64
        var wall: Int64
        /// Wall time per uptime, `numerator / denominator` (``setWallRate(_:per:)``).
        var wallRate: (numerator: Int64, denominator: Int64) = (1, 1)
        /// The part of a wall nanosecond carried from the last move, in `1 / denominator`ths.
        var wallCarry: Int64 = 0

        /// Moves every clock by `delta` of uptime, wall time at its rate.
        mutating func move(by delta: Int64) {
            uptime += delta
            continuous += delta
            if wallRate == (1, 1) {
                wall += delta
                return
            }
            let (scaled, overflow) = delta.multipliedReportingOverflow(by: wallRate.numerator)
            guard !overflow else {
                wall = .max
                return
            }
            let carried = wallCarry + scaled % wallRate.denominator
            wall += scaled / wallRate.denominator + carried / wallRate.denominator
            wallCarry = carried % wallRate.denominator
        }
    }

    private let readings: Mutex<Readings>
    private let sleepObservers = Mutex<[@Sendable () -> Void]>([])
    /// The loop whose timers serve the clock's sleeps (``sleep(until:tolerance:)``).
    let servingLoop = ServingLoop()

    /// The wall-clock origin of a new virtual clock: 2026-01-01T00:00:00Z.
    public static let defaultWallStart = Instant(nanoseconds: 1_767_225_600 * Nanoseconds.perSecond)

    /// Creates a clock whose uptime and continuous time start at zero and whose wall time starts at `wallStart`.
    public init(wallStart: Instant = VirtualClock.defaultWallStart) {
        readings = Mutex(Readings(uptime: 0, continuous: 0, wall: wallStart.nanoseconds))
        CreationSite.virtualClock(exists: true)
    }

    deinit {
        CreationSite.virtualClock(exists: false)
    }

    /// The current reading of `kind`.
    public func now(_ kind: ClockKind = .uptime) -> Instant {
        readings.withLock { readings in
            switch kind {
            case .uptime: Instant(nanoseconds: readings.uptime)
            case .continuous: Instant(nanoseconds: readings.continuous)
            case .wall: Instant(nanoseconds: readings.wall).read(from: .wall)
            }
        }
    }

    /// Declares `duration` of simulated work: every clock advances by it.
    ///
    /// Call it from a callout to make the callout "take" that long, which is how late-fire cases
    /// (runloop-reference C-T6) are reproduced deterministically. Negative durations are ignored.
    public func busy(_ duration: Duration) {
        let delta = max(duration.nanoseconds, 0)
        readings.withLock { $0.move(by: delta) }
    }

    /// Simulates the machine sleeping for `duration`: continuous and wall time advance, uptime does not.
    public func sleep(_ duration: Duration) {
        let delta = max(duration.nanoseconds, 0)
        readings.withLock { readings in
            readings.continuous += delta
            readings.wall += delta
        }
        for observer in sleepObservers.withLock({ $0 }) { observer() }
    }

    /// Sets wall time to `instant`, earlier or later, as a clock set by hand or stepped by NTP is:
    /// uptime and continuous time do not move.
    public func setWall(to instant: Instant) {
        readings.withLock { $0.wall = instant.nanoseconds }
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
    public func advance(toUptime instant: Instant) {
        readings.withLock { readings in
            let delta = instant.nanoseconds - readings.uptime
            guard delta > 0 else { return }
            readings.move(by: delta)
        }
    }

    /// From now on wall time moves `numerator / denominator` as fast as uptime (each clamped to
    /// 1…1000), as a wall clock slewed by NTP or drifting does; `(1, 1)` again keeps them together.
    public func setWallRate(_ numerator: Int64, per denominator: Int64) {
        readings.withLock { readings in
            readings.wallRate = (min(max(numerator, 1), 1_000), min(max(denominator, 1), 1_000))
            readings.wallCarry = 0
        }
        for observer in sleepObservers.withLock({ $0 }) { observer() }
    }

    /// The uptime that must pass for `kind` to move on by `ahead` nanoseconds (at least zero):
    /// `ahead` itself but for wall time at another rate than uptime's.
    func uptimeUntil(_ kind: ClockKind, movesBy ahead: Int64) -> Int64 {
        guard ahead > 0 else { return 0 }
        return readings.withLock { readings in
            let (numerator, denominator) = readings.wallRate
            guard kind == .wall, (numerator, denominator) != (1, 1) else { return ahead }
            // The least u with (u * numerator + carry) / denominator >= ahead: the ceiling of
            // (ahead * denominator - carry) / numerator. A deadline too far to scale is far anyway.
            let (needed, overflow) = ahead.multipliedReportingOverflow(by: denominator)
            guard !overflow else { return ahead }
            let short = needed - readings.wallCarry
            return max(short / numerator + (short % numerator > 0 ? 1 : 0), 0)
        }
    }
}
