import RunLoopKit
import TimeUnits

/// Durations as the config file and headless scripts write them: `250ms`, `3s`, `5m`, `2h` (the
/// dashboard reads them with `DurationText.parse`).
package enum DurationText {
    /// The units a duration may be written in, with their length.
    package enum Unit: String, CaseIterable {
        case milliseconds = "ms"
        case seconds = "s"
        case minutes = "m"
        case hours = "h"

        package var nanoseconds: Int64 {
            switch self {
            case .milliseconds: Nanoseconds.perMillisecond
            case .seconds: Nanoseconds.perSecond
            case .minutes: 60_000_000_000
            case .hours: 3_600_000_000_000
            }
        }
    }

    /// The form a config file would use when it is exact: `2h`, `5m`, `5s`, `250ms`, `0s`; otherwise ``format(_:)``.
    package static func setting(_ duration: Duration) -> String {
        let nanos = duration.nanoseconds
        if nanos == 0 { return "0s" }
        for unit in Unit.allCases.reversed() where nanos > 0 && nanos % unit.nanoseconds == 0 {
            return "\(nanos / unit.nanoseconds)\(unit.rawValue)"
        }
        return format(duration)
    }

    /// A short human form: `850ms`, `12.5s`, `4m05s`, `23h59m05s`.
    package static func format(_ duration: Duration) -> String {
        abbreviations(duration)[0]
    }

    /// The forms of `duration` from the fullest to the shortest, each rounded to its last unit:
    /// `["4m05s", "4m"]`, `["23h59m59s", "24h"]`, `["12.5s", "13s"]`, `["850ms"]`.
    package static func abbreviations(_ duration: Duration) -> [String] {
        let nanos = duration.nanoseconds
        let sign = nanos < 0 ? "-" : ""
        let magnitude = nanos.magnitude
        if magnitude < UInt64(Nanoseconds.perMillisecond) {
            return ["\(sign)\(magnitude / UInt64(Nanoseconds.perMicrosecond))µs"]
        }
        if magnitude < UInt64(Nanoseconds.perSecond) {
            return ["\(sign)\(magnitude / UInt64(Nanoseconds.perMillisecond))ms"]
        }
        let tenths = magnitude / 100_000_000
        let seconds = magnitude / UInt64(Nanoseconds.perSecond)
        func two(_ value: UInt64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        func rounded(_ unit: UInt64) -> UInt64 { (magnitude + unit / 2) / unit }
        let minutes = rounded(60_000_000_000)
        let hours = rounded(3_600_000_000_000)
        let coarse = [
            "\(sign)\(minutes / 60)h" + (minutes % 60 == 0 ? "" : "\(two(minutes % 60))m"), "\(sign)\(hours)h",
        ]
        if magnitude < 60_000_000_000 {
            return ["\(sign)\(tenths / 10).\(tenths % 10)s", "\(sign)\(rounded(UInt64(Nanoseconds.perSecond)))s"]
                .uniqued
        }
        if seconds < 3_600 {
            let full = "\(sign)\(seconds / 60)m\(two(seconds % 60))s"
            return [full, minutes < 60 ? "\(sign)\(minutes)m" : coarse[1]].uniqued
        }
        let full = "\(sign)\(seconds / 3_600)h\(two(seconds / 60 % 60))m\(two(seconds % 60))s"
        return ([full] + coarse).uniqued
    }

    /// A range as the config file and the messages write it: `1ms…10s`.
    package static func range(_ range: ClosedRange<Duration>) -> String {
        "\(setting(range.lowerBound))…\(setting(range.upperBound))"
    }
}

extension Array where Element == String {
    /// The elements without repeats, in order.
    fileprivate var uniqued: [String] {
        var seen: Set<String> = []
        return filter { seen.insert($0).inserted }
    }
}
