import FoundationEssentials
import RunLoopKit
internal import TimeUnits

/// Converts Foundation's wall-clock `Date`s to the uptime ``RunLoopKit/Instant``s a run loop
/// waits on, and back, on one ``RunLoopKit/TimeSource``.
///
/// A date is converted once, when it is given (as `CFRunLoopTimerSetNextFireDate` converts it to
/// `mach_absolute_time`): the run loop then waits on the uptime clock, so a later jump of the wall
/// clock (settimeofday, NTP stepping it, a machine that slept) does not move a timer or a run's
/// limit. On a ``RunLoopKit/VirtualClock`` the dates are the clock's own wall time.
enum WallClock {
    /// The longest interval a date may lie ahead: later dates mean "never" (`Instant.distantFuture`).
    /// 100 years, well inside the 292 years of signed 64-bit nanoseconds.
    static let longestInterval: TimeInterval = 100 * 365.25 * 86_400

    /// The wall-clock date now on `clock`.
    static func now(on clock: TimeSource) -> Date {
        date(wallNanoseconds: clock.now(.wall).nanoseconds)
    }

    /// The uptime instant that is `date` on `clock`, read now; a date in the past is an instant in the past.
    ///
    /// The distance is rounded to the microsecond: a `Date` near today holds its time to about a
    /// tenth of a microsecond, so finer digits of a difference of two dates are rounding noise.
    static func instant(for date: Date, on clock: TimeSource) -> Instant {
        let uptime = clock.now(.uptime)
        let ahead = date.timeIntervalSince(now(on: clock))
        if ahead >= longestInterval { return .distantFuture }
        return uptime + .microseconds(Int64((max(ahead, -longestInterval) * 1e6).rounded()))
    }

    /// The wall-clock date of the uptime `instant` on `clock`, read now.
    static func date(for instant: Instant, on clock: TimeSource) -> Date {
        if instant == .distantFuture { return .distantFuture }
        let uptime = clock.now(.uptime)
        return now(on: clock).addingTimeInterval(seconds(instant - uptime))
    }

    /// `interval` seconds as a `Duration`, to the nanosecond.
    static func duration(_ interval: TimeInterval) -> Duration {
        .nanoseconds(Nanoseconds.from(seconds: interval))
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> TimeInterval {
        Nanoseconds.seconds(duration.nanoseconds)
    }

    private static func date(wallNanoseconds: Int64) -> Date {
        let whole = wallNanoseconds / Nanoseconds.perSecond
        let fraction = wallNanoseconds % Nanoseconds.perSecond
        return Date(timeIntervalSince1970: TimeInterval(whole) + Nanoseconds.seconds(fraction))
    }
}
