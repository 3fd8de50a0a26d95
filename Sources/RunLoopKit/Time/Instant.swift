/// A point in time on one of the run loop clocks, in integer nanoseconds.
///
/// Instants from different ``ClockKind``s are not comparable in meaning. Debug builds remember
/// which clock read an instant and stop with a message when a wall-clock reading
/// (`now(.wall)`, or one moved from it) is given where the loop's uptime clock is expected: a
/// timer's fire date, a run's limit, a timeout's deadline, a sleep's deadline.
///
/// ```swift
/// let loop = RunLoop(clock: .virtual(VirtualClock()))
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

    /// Stops a debug build when this instant was read from the wall clock: `api` takes a deadline on
    /// the loop's uptime clock, whose origin is the boot, not 1970, so a wall reading there would be
    /// a deadline decades away.
    package func checkUptimeDeadline(_ api: @autoclosure () -> String) {
        #if DEBUG
        precondition(
            readFrom != .wall,
            "\(api()): \(self) was read from the wall clock (now(.wall)), but this deadline is on the "
                + "loop's uptime clock; use loop.now + a duration, or a dispatch timer on the wall clock")
        #endif
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
    ///
    /// A duration under 9.2 s fits its attoseconds in 64 bits and is divided there, by a constant
    /// the compiler turns into a multiplication: `components` divides 128 bits by 10¹⁸ in a library
    /// call, a few percent of the profile of moving a million timeouts later by `deadline + .seconds(1)`.
    package var nanoseconds: Int64 {
        let total = attoseconds
        if let small = Int64(exactly: total) { return small / 1_000_000_000 }
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: Nanoseconds.perSecond)
        if overflow { return seconds < 0 ? Int64.min : Int64.max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? Int64.min : Int64.max }
        return sum
    }
}
