import Glibc

/// Conversions of nanosecond counts, the package's time unit (``Instant/nanoseconds``): the one
/// home of the factors between nanoseconds and the other units.
public enum Nanoseconds {
    /// Nanoseconds in a second.
    @inlinable public static var perSecond: Int64 { 1_000_000_000 }
    /// Nanoseconds in a millisecond.
    @inlinable public static var perMillisecond: Int64 { 1_000_000 }
    /// Nanoseconds in a microsecond.
    @inlinable public static var perMicrosecond: Int64 { 1_000 }

    /// `nanoseconds` in whole milliseconds, rounded up, for a wait that must not end early.
    @inlinable public static func millisecondsRoundedUp(_ nanoseconds: Int64) -> Int64 {
        nanoseconds / perMillisecond + (nanoseconds % perMillisecond > 0 ? 1 : 0)
    }

    /// `nanoseconds` in seconds, as a fraction.
    @inlinable public static func seconds(_ nanoseconds: some BinaryInteger) -> Double {
        Double(nanoseconds) / Double(perSecond)
    }

    /// `nanoseconds` in milliseconds, as a fraction.
    @inlinable public static func milliseconds(_ nanoseconds: some BinaryInteger) -> Double {
        Double(nanoseconds) / Double(perMillisecond)
    }

    /// `nanoseconds` as the kernel's `timespec` (a negative count's seconds and nanoseconds are
    /// both negative or zero, as `/` and `%` give them).
    public static func timespec(_ nanoseconds: Int64) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / perSecond), tv_nsec: Int(nanoseconds % perSecond))
    }

    /// The kernel's `spec` as a count of nanoseconds.
    public static func of(_ spec: Glibc.timespec) -> Int64 {
        Int64(spec.tv_sec) * perSecond + Int64(spec.tv_nsec)
    }

    /// `seconds` in whole nanoseconds, rounded to the nearest and saturating at the bounds of `Int64`.
    @inlinable public static func from(seconds: Double) -> Int64 {
        let scaled = (seconds * Double(perSecond)).rounded()
        guard scaled.isFinite, scaled < 9.2e18 else { return scaled < 0 ? .min : .max }
        guard scaled > -9.2e18 else { return .min }
        return Int64(scaled)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating at the bounds of `Int64`.
    ///
    /// A duration under 9.2 s fits its attoseconds in 64 bits and is divided there, by a constant
    /// the compiler turns into a multiplication: `components` divides 128 bits by 10¹⁸ in a library
    /// call, a few percent of the profile of moving a million timeouts later by `deadline + .seconds(1)`.
    @inlinable public var nanoseconds: Int64 {
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
