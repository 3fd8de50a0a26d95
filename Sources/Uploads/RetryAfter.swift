import Foundation

/// A server's `Retry-After` header: a number of seconds or an HTTP date (RFC 9110, 10.2.3).
public enum RetryAfter: Sendable, Hashable {
    /// Wait this long after the response.
    case delay(Duration)
    /// Wait until this wall time.
    case date(Date)

    /// Parses a header value: delta-seconds (`120`) or an HTTP date in any of the three forms
    /// servers send (`Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT`,
    /// `Sun Nov  6 08:49:37 1994`). Returns nil for anything else.
    public init?(headerValue: String) {
        let value = headerValue.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            guard let seconds = Int64(value) else { return nil }
            self = .delay(.seconds(seconds))
            return
        }
        guard let seconds = Self.httpDateSeconds(value) else { return nil }
        self = .date(Date(timeIntervalSince1970: Double(seconds)))
    }

    /// How long to wait from `now`; never negative (a date in the past means "now") and never
    /// longer than ``longestDelay``, so a server cannot hold the uploads off indefinitely.
    public func delay(from now: Date) -> Duration {
        switch self {
        case .delay(let duration):
            return min(max(duration, .zero), Self.longestDelay)
        case .date(let date):
            let milliseconds = ((date.timeIntervalSince1970 - now.timeIntervalSince1970) * 1000).rounded(.up)
            let longest = Double(Self.longestDelay.components.seconds) * 1000
            // Clamped in floating point first: converting an out-of-range Double to Int64 would trap.
            guard milliseconds < longest else { return Self.longestDelay }
            return milliseconds > 0 ? .milliseconds(Int64(milliseconds)) : .zero
        }
    }

    /// The longest wait a `Retry-After` can impose: one day.
    public static let longestDelay = Duration.seconds(86_400)

    /// The years an HTTP date may name (RFC 9110's `year = 4DIGIT`); anything else is not a date.
    private static let years = 1...9999

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Seconds since the Unix epoch of an HTTP date, or nil if `text` is not one.
    private static func httpDateSeconds(_ text: String) -> Int64? {
        let words = text.replacingOccurrences(of: ",", with: " ").split(separator: " ").map(String.init)
        let day: Int
        let month: String
        let year: Int
        let clock: String
        switch words.count {
        case 6 where words[5] == "GMT":  // IMF-fixdate: Sun 06 Nov 1994 08:49:37 GMT
            guard let d = Int(words[1]), let y = Int(words[3]) else { return nil }
            (day, month, year, clock) = (d, words[2], y, words[4])
        case 4 where words[3] == "GMT":  // RFC 850: Sunday 06-Nov-94 08:49:37 GMT
            let parts = words[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let d = Int(parts[0]), let yy = Int(parts[2]), parts[2].count == 2 else {
                return nil
            }
            // RFC 9110: a two-digit year is the most recent past year with those digits; 70 splits it.
            (day, month, year, clock) = (d, parts[1], yy < 70 ? 2000 + yy : 1900 + yy, words[2])
        case 5:  // asctime: Sun Nov 6 08:49:37 1994
            guard let d = Int(words[2]), let y = Int(words[4]) else { return nil }
            (day, month, year, clock) = (d, words[1], y, words[3])
        default:
            return nil
        }
        let time = clock.split(separator: ":").compactMap { Int($0) }
        guard years.contains(year), let monthIndex = months.firstIndex(of: month), time.count == 3,
            (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2])
        else { return nil }
        let days = daysSinceEpoch(year: year, month: monthIndex + 1, day: day)
        return days * 86_400 + Int64(time[0] * 3600 + time[1] * 60 + time[2])
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    ///
    /// `year` is within ``years``, so no step can overflow.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
