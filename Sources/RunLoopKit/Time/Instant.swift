/// A point in time on one of the run loop clocks, in integer nanoseconds.
///
/// Instants from different ``ClockKind``s are not comparable in meaning; the type does not
/// stop you from mixing them, so keep each instant with the clock that produced it.
///
/// ```swift
/// let loop = RunLoop(clock: .virtual(VirtualClock()))
/// let deadline = loop.now + .seconds(5)
/// loop.run(until: deadline)
/// ```
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// Creates an instant `nanoseconds` after the clock's origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The clock's origin.
    public static let zero = Instant(nanoseconds: 0)

    /// An instant later than any a clock will reach; a timer set to it never fires.
    public static let distantFuture = Instant(nanoseconds: Int64.max)

    /// The instant `duration` later (saturating at ``distantFuture``).
    public func advanced(by duration: Duration) -> Instant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanoseconds)
        if overflow { return duration < .zero ? Instant(nanoseconds: Int64.min) : .distantFuture }
        return Instant(nanoseconds: sum)
    }

    /// The duration from `self` to `other` (negative when `other` is earlier).
    public func duration(to other: Instant) -> Duration {
        .nanoseconds(other.nanoseconds &- nanoseconds)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// `lhs` advanced by `rhs`.
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        lhs.advanced(by: rhs)
    }

    /// `lhs` moved back by `rhs`.
    public static func - (lhs: Instant, rhs: Duration) -> Instant {
        lhs.advanced(by: .zero - rhs)
    }

    /// The duration from `rhs` to `lhs`.
    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        rhs.duration(to: lhs)
    }

    /// Seconds with millisecond precision, for display only.
    public var description: String {
        if self == .distantFuture { return "never" }
        let millis = nanoseconds / Nanoseconds.perMillisecond
        let sign = millis < 0 ? "-" : ""
        let magnitude = millis.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)s"
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at the bounds of `Int64`.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: Nanoseconds.perSecond)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? Int64.min : Int64.max }
        return sum
    }
}
