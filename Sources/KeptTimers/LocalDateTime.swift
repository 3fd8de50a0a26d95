import Glibc
import RunLoopKit
import TimeUnits

/// A date and time on the local wall clock, to the second: `2026-12-24T18:00`.
package struct LocalDateTime: Equatable, Sendable {
    /// 1970…9999.
    package let year: Int
    /// 1…12.
    package let month: Int
    /// 1…the month's last day.
    package let day: Int
    /// The time on that day.
    package let time: TimeOfDay

    /// Checked: `nil` unless the date exists (29 February only in a leap year).
    package init?(year: Int, month: Int, day: Int, time: TimeOfDay) {
        guard (1970...9999).contains(year), (1...12).contains(month), day >= 1,
            day <= Self.days(inMonth: month, of: year)
        else { return nil }
        (self.year, self.month, self.day, self.time) = (year, month, day, time)
    }

    /// The local date and time the wall clock shows at `instant` (`localtime_r`: the `TZ`
    /// environment variable or `/etc/localtime`); `nil` outside 1970…9999.
    package init?(localTimeOf instant: Instant) {
        var seconds = time_t(instant.nanoseconds / Nanoseconds.perSecond)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil,
            let time = TimeOfDay(hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
        else { return nil }
        self.init(year: Int(parts.tm_year) + 1_900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday), time: time)
    }

    /// Reads `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` (ISO 8601 without a zone: local time).
    package init?(text: String) {
        let halves = text.split(separator: "T", omittingEmptySubsequences: false)
        guard halves.count == 2, let time = TimeOfDay(text: String(halves[1])) else { return nil }
        let parts = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, zip(parts, [4, 2, 2]).allSatisfy({ $0.count == $1 }),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        self.init(year: numbers[0], month: numbers[1], day: numbers[2], time: time)
    }

    /// `2026-12-24T18:00`, or with its seconds `2026-12-24T18:00:30`.
    package var text: String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(twoDigits(month))-\(twoDigits(day))T\(time.text)"
    }

    private static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Seconds from 1970-01-01T00:00 to this date and time, read as if it were UTC (days from the
    /// civil calendar, proleptic Gregorian).
    private var secondsAsUTC: Int64 {
        let shifted = Int64(month <= 2 ? year - 1 : year)
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + Int64(time.hour * 3_600 + time.minute * 60 + time.second)
    }

    /// The wall-clock instant the local clock shows this date and time at, in the zone `utcOffset`
    /// gives. A time the clock shows twice (summer time ending) is the earlier; one it skips (summer
    /// time starting) is as far past the change as it was past the skipped hour's start, as
    /// `mktime` does: 02:30 on a day the clock goes from 02:00 to 03:00 is 03:30.
    package func instant(utcOffset: (Instant) -> Duration) -> Instant {
        let local = Instant(nanoseconds: secondsAsUTC * 1_000_000_000)
        // The offsets in force half a day either side cover any one change around the target.
        let before = utcOffset(local - .seconds(43_200))
        let after = utcOffset(local + .seconds(43_200))
        let shown = [before, after].map { (offset: $0, instant: local - $0) }.filter {
            utcOffset($0.instant) == $0.offset
        }
        return shown.map(\.instant).min() ?? local - before
    }
}

/// A time of day on the local wall clock, to the second.
package struct TimeOfDay: Equatable, Sendable {
    /// 0…23.
    package let hour: Int
    /// 0…59.
    package let minute: Int
    /// 0…59.
    package let second: Int

    /// Seconds in a day.
    private static let day: Int64 = 86_400

    /// Checked: `nil` unless each part is in range.
    package init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Reads `HH:MM` or `HH:MM:SS` (two digits each); anything else is `nil`.
    package init?(text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        self.init(hour: numbers[0], minute: numbers[1], second: numbers.count == 3 ? numbers[2] : 0)
    }

    /// `07:30` or `07:30:15`.
    package var text: String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(hour)):\(twoDigits(minute))" + (second == 0 ? "" : ":\(twoDigits(second))")
    }

    /// `07:30:00`, always with its seconds.
    package var clockText: String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))"
    }

    private var secondsIntoDay: Int64 { Int64(hour * 3_600 + minute * 60 + second) }

    /// The time from wall-clock time `wallNow` to the next instant whose local time of day is this
    /// one (zero when it is now). Across a change of the zone's offset (summer time) the local time
    /// is taken at the target, so 07:30 stays 07:30.
    package func timeUntilNext(after wallNow: Instant, utcOffset: (Instant) -> Duration) -> Duration {
        let localNow = wallNow.nanoseconds + utcOffset(wallNow).nanoseconds
        let dayNanoseconds = Self.day * Nanoseconds.perSecond
        let intoDay = ((localNow % dayNanoseconds) + dayNanoseconds) % dayNanoseconds
        var delay = secondsIntoDay * Nanoseconds.perSecond - intoDay
        if delay < 0 { delay += dayNanoseconds }
        // The offset at the target may differ from the offset now by an hour or so.
        let shift = utcOffset(wallNow).nanoseconds - utcOffset(wallNow + .nanoseconds(delay)).nanoseconds
        delay += shift
        if delay < 0 { delay += dayNanoseconds }
        return .nanoseconds(delay)
    }

    /// The local zone's offset from UTC at `instant` of the wall clock (`localtime_r`, the `TZ`
    /// environment variable or `/etc/localtime`).
    @Sendable package static func localOffset(at instant: Instant) -> Duration {
        var seconds = time_t(instant.nanoseconds / Nanoseconds.perSecond)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return .zero }
        return .seconds(parts.tm_gmtoff)
    }
}
