/// Parses and prints durations written as in the config file and headless scripts: `250ms`, `3s`, `5m`, `2h`.
package enum DurationText {
    /// The form a config file would use when it is exact: `2h`, `5m`, `5s`, `250ms`, `0s`; otherwise ``format(_:)``.
    package static func setting(_ duration: Duration) -> String {
        let nanos = duration.nanoseconds
        if nanos == 0 { return "0s" }
        for unit in Unit.allCases.reversed() where nanos > 0 && nanos % unit.nanoseconds == 0 {
            return "\(nanos / unit.nanoseconds)\(unit.rawValue)"
        }
        return format(duration)
    }

    /// A short human form: `850ms`, `12.5s`, `4m05s`.
    package static func format(_ duration: Duration) -> String {
        let nanos = duration.nanoseconds
        let sign = nanos < 0 ? "-" : ""
        let magnitude = nanos.magnitude
        if magnitude < 1_000_000 { return "\(sign)\(magnitude / 1_000)µs" }
        if magnitude < 1_000_000_000 { return "\(sign)\(magnitude / 1_000_000)ms" }
        let tenths = magnitude / 100_000_000
        if magnitude < 60_000_000_000 { return "\(sign)\(tenths / 10).\(tenths % 10)s" }
        let seconds = magnitude / 1_000_000_000
        let remainder = seconds % 60
        return "\(sign)\(seconds / 60)m\(remainder < 10 ? "0" : "")\(remainder)s"
    }

    /// A range as the config file and the messages write it: `1ms…10s`.
    static func range(_ range: ClosedRange<Duration>) -> String {
        "\(setting(range.lowerBound))…\(setting(range.upperBound))"
    }
}
