import Glibc

/// Conversions of nanosecond counts, the package's time unit (``Instant/nanoseconds``): the one
/// home of the factors between nanoseconds and the other units.
package enum Nanoseconds {
    /// Nanoseconds in a second.
    package static let perSecond: Int64 = 1_000_000_000
    /// Nanoseconds in a millisecond.
    package static let perMillisecond: Int64 = 1_000_000
    /// Nanoseconds in a microsecond.
    package static let perMicrosecond: Int64 = 1_000

    /// `nanoseconds` in whole milliseconds, rounded up, for a wait that must not end early.
    package static func millisecondsRoundedUp(_ nanoseconds: Int64) -> Int64 {
        nanoseconds / perMillisecond + (nanoseconds % perMillisecond > 0 ? 1 : 0)
    }

    /// `nanoseconds` in seconds, as a fraction.
    package static func seconds(_ nanoseconds: some BinaryInteger) -> Double {
        Double(nanoseconds) / Double(perSecond)
    }

    /// `nanoseconds` in milliseconds, as a fraction.
    package static func milliseconds(_ nanoseconds: some BinaryInteger) -> Double {
        Double(nanoseconds) / Double(perMillisecond)
    }

    /// `nanoseconds` as the kernel's `timespec` (a negative count's seconds and nanoseconds are
    /// both negative or zero, as `/` and `%` give them).
    package static func timespec(_ nanoseconds: Int64) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(nanoseconds / perSecond), tv_nsec: Int(nanoseconds % perSecond))
    }

    /// The kernel's `spec` as a count of nanoseconds.
    package static func of(_ spec: Glibc.timespec) -> Int64 {
        Int64(spec.tv_sec) * perSecond + Int64(spec.tv_nsec)
    }

    /// `seconds` in whole nanoseconds, rounded to the nearest and saturating at the bounds of `Int64`.
    package static func from(seconds: Double) -> Int64 {
        let scaled = (seconds * Double(perSecond)).rounded()
        guard scaled.isFinite, scaled < 9.2e18 else { return scaled < 0 ? .min : .max }
        guard scaled > -9.2e18 else { return .min }
        return Int64(scaled)
    }
}
