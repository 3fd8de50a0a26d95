import Glibc

extension Sample {
    /// `takenAt` in ISO 8601 (RFC 3339), UTC, with milliseconds: `2025-05-04T09:12:30.250Z`.
    public var takenAtISO8601: String { Self.iso8601(millisecondsSince1970: takenAtMilliseconds) }

    /// An instant, in milliseconds since the Unix epoch, in ISO 8601 (RFC 3339), UTC, with milliseconds.
    package static func iso8601(millisecondsSince1970 instant: Int64) -> String {
        // Floor division, so times before 1970 still get a 0...999 millisecond part.
        let seconds = instant >= 0 ? instant / 1000 : (instant - 999) / 1000
        let milliseconds = Int(instant - seconds * 1000)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let date = [
            Self.zeroPadded(Int(parts.tm_year) + 1900, width: 4),
            Self.zeroPadded(Int(parts.tm_mon) + 1, width: 2),
            Self.zeroPadded(Int(parts.tm_mday), width: 2),
        ].joined(separator: "-")
        let clock = [
            Self.zeroPadded(Int(parts.tm_hour), width: 2),
            Self.zeroPadded(Int(parts.tm_min), width: 2),
            Self.zeroPadded(Int(parts.tm_sec), width: 2),
        ].joined(separator: ":")
        return "\(date)T\(clock).\(Self.zeroPadded(milliseconds, width: 3))Z"
    }

    private static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
