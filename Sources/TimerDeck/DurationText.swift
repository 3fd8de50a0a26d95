/// Parses and prints durations written as in the config file and headless scripts: `250ms`, `3s`, `5m`.
public enum DurationText {
    /// The duration `text` stands for, or `nil` if it is not `<integer><unit>` with unit `ms`, `s`, `m` or `h`.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = Substring(text).drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        let text = String(trimmed)
        let digits = text.prefix { $0.isNumber }
        guard !digits.isEmpty, let value = Int64(digits) else { return nil }
        switch text.dropFirst(digits.count) {
        case "ms": return .milliseconds(value)
        case "s": return .seconds(value)
        case "m": return .seconds(value * 60)
        case "h": return .seconds(value * 3_600)
        default: return nil
        }
    }

    /// The form a config file would use when it is exact: `5m`, `5s`, `250ms`; otherwise ``format(_:)``.
    public static func setting(_ duration: Duration) -> String {
        let nanos = duration.nanoseconds
        if nanos > 0, nanos % 60_000_000_000 == 0 { return "\(nanos / 60_000_000_000)m" }
        if nanos > 0, nanos % 1_000_000_000 == 0 { return "\(nanos / 1_000_000_000)s" }
        if nanos > 0, nanos % 1_000_000 == 0 { return "\(nanos / 1_000_000)ms" }
        return format(duration)
    }

    /// A short human form: `850ms`, `12.5s`, `4m05s`.
    public static func format(_ duration: Duration) -> String {
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
}
