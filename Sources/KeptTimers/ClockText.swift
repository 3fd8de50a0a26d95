/// Times as the dashboard's clocks show them, and `timerdeck status` with them: a countdown's
/// `02:41`, a stopwatch's `12:03.4`.
///
/// ```swift
/// ClockText.countdown(seconds: 161)               // "02:41"
/// ClockText.stopwatch(.milliseconds(723_400))     // "12:03.4"
/// ```
package enum ClockText {
    /// `seconds` as `MM:SS`, or `H:MM:SS` from an hour on.
    package static func countdown(seconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let (hours, minutes, rest) = (seconds / 3_600, seconds / 60 % 60, seconds % 60)
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(two(minutes)):\(two(rest))"
    }

    /// A time as the stopwatch shows it: `01:02.3`, `1:00:00.0` from an hour on (tenths, cut).
    package static func stopwatch(_ duration: Duration) -> String {
        let tenths = max(duration.nanoseconds, 0) / 100_000_000
        let seconds = tenths / 10
        func twoDigits(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let minutes = "\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60)).\(tenths % 10)"
        return seconds < 3_600 ? minutes : "\(seconds / 3_600):" + minutes
    }
}
