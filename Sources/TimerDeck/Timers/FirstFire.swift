import Glibc
import RunLoopKit

extension TimerDefinition {
    /// When a defined timer's first fire is due, counted from the moment it starts.
    package enum FirstFire: Equatable, Sendable {
        /// At once, as a `DispatchTime.now()` deadline does (G2).
        case now
        /// One interval after the start, as `scheduledTimer(withTimeInterval:)` does (M1).
        case afterInterval
        /// At the next time the local wall clock shows this time of day (today, or tomorrow when it
        /// has passed); after it, every interval.
        case at(TimeOfDay)

        /// What the `first_fire` field accepts, as the error messages say it.
        static let accepted = "\"now\", \"after-interval\" or a local time of day \"HH:MM\" or \"HH:MM:SS\""

        /// Reads a `first_fire` value: `now`, `after-interval`, `07:30`, `23:59:30`.
        init?(text: String) {
            switch text {
            case "now": self = .now
            case "after-interval": self = .afterInterval
            default:
                guard let time = TimeOfDay(text: text) else { return nil }
                self = .at(time)
            }
        }

        /// The value as the config file writes it.
        var text: String {
            switch self {
            case .now: "now"
            case .afterInterval: "after-interval"
            case .at(let time): time.text
            }
        }

        /// The time from a start at wall-clock time `wallNow` to the first fire of a timer repeating
        /// every `interval`; `utcOffset` gives the local zone's offset from UTC at a wall-clock instant.
        func delay(
            interval: Duration, wallNow: Instant, utcOffset: (Instant) -> Duration = TimeOfDay.localOffset(at:)
        ) -> Duration {
            switch self {
            case .now: .zero
            case .afterInterval: interval
            case .at(let time): time.timeUntilNext(after: wallNow, utcOffset: utcOffset)
            }
        }
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
    init?(text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        let numbers = parts.compactMap { Int($0) }
        self.init(hour: numbers[0], minute: numbers[1], second: numbers.count == 3 ? numbers[2] : 0)
    }

    /// `07:30` or `07:30:15`.
    var text: String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(hour)):\(twoDigits(minute))" + (second == 0 ? "" : ":\(twoDigits(second))")
    }

    private var secondsIntoDay: Int64 { Int64(hour * 3_600 + minute * 60 + second) }

    /// The time from wall-clock time `wallNow` to the next instant whose local time of day is this
    /// one (zero when it is now). Across a change of the zone's offset (summer time) the local time
    /// is taken at the target, so 07:30 stays 07:30.
    func timeUntilNext(after wallNow: Instant, utcOffset: (Instant) -> Duration) -> Duration {
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
