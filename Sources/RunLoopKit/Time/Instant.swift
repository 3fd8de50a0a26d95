internal import TimeUnits

/// A point in time on one of the run loop clocks, in integer nanoseconds.
///
/// Instants from different ``ClockKind``s are not comparable in meaning. A wall-clock reading
/// (`now(.wall)`, or one moved from it) given where the loop's uptime clock is expected — a
/// timer's fire date, a run's limit, a timeout's deadline — stops the program with a message in
/// every build: an instant from 2001 to 2096 as wall time is never an uptime. Debug builds also
/// remember which clock read an instant, and refuse any wall reading there.
///
/// ```swift
/// let loop = RunLoop(timeSource: .virtual(VirtualClock()))
/// let deadline = loop.now + .seconds(5)
/// loop.run(until: deadline)
/// ```
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    #if DEBUG
    /// The clock that read this instant, if one did; kept in debug builds only, for
    /// ``checkUptimeDeadline(_:)``, and never part of equality or hashing.
    private var readFrom: ClockKind?
    #endif

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
        var result =
            overflow ? (duration < .zero ? Instant(nanoseconds: Int64.min) : .distantFuture) : Instant(nanoseconds: sum)
        #if DEBUG
        result.readFrom = readFrom
        #endif
        return result
    }

    /// The duration from `self` to `other` (negative when `other` is earlier).
    public func duration(to other: Instant) -> Duration {
        .nanoseconds(other.nanoseconds &- nanoseconds)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public static func == (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanoseconds == rhs.nanoseconds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(nanoseconds)
    }

    /// This reading, remembered (in debug builds) as read from `kind`.
    package func read(from kind: ClockKind) -> Instant {
        #if DEBUG
        var reading = self
        reading.readFrom = kind
        return reading
        #else
        return self
        #endif
    }

    /// Stops the program when this instant is a wall-clock reading: `api` takes a deadline on the
    /// loop's uptime clock, whose origin is the boot, not 1970, so a wall reading there would be a
    /// deadline decades away. Every build refuses an instant between 2001 and 2096 as wall time
    /// (10¹⁸ to 4·10¹⁸ ns: no uptime reaches 31 years); debug builds also refuse any instant read
    /// from the wall clock or moved from one.
    package func checkUptimeDeadline(_ api: @autoclosure () -> String) {
        #if DEBUG
        let isWallReading = readFrom == .wall || Self.wallReadings.contains(nanoseconds)
        #else
        let isWallReading = Self.wallReadings.contains(nanoseconds)
        #endif
        precondition(
            !isWallReading,
            "\(api()): \(self) is a wall-clock reading (now(.wall), nanoseconds since 1970), but this deadline is "
                + "on the loop's uptime clock; use loop.now + a duration, or a dispatch timer on the wall clock")
    }

    /// Nanosecond counts that are wall-clock readings (2001 to 2096) and never an uptime.
    private static let wallReadings: Range<Int64> = 1_000_000_000_000_000_000..<4_000_000_000_000_000_000

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
