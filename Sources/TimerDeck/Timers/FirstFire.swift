import Glibc
import KeptTimers
import RunLoopKit
import TimeUnits

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
        /// At a local date and time (at once when it has passed); after it, every interval.
        case on(LocalDateTime)

        /// What the `first_fire` field accepts, as the error messages say it.
        static let accepted =
            "\"now\", \"after-interval\", a local time of day \"HH:MM\" or \"HH:MM:SS\", or a local date and time "
            + "\"YYYY-MM-DDTHH:MM\" or \"YYYY-MM-DDTHH:MM:SS\""

        /// Reads a `first_fire` value: `now`, `after-interval`, `07:30`, `23:59:30`, `2026-12-24T18:00`.
        init?(text: String) {
            switch text {
            case "now": self = .now
            case "after-interval": self = .afterInterval
            default:
                if let time = TimeOfDay(text: text) {
                    self = .at(time)
                } else if let date = LocalDateTime(text: text) {
                    self = .on(date)
                } else {
                    return nil
                }
            }
        }

        /// Whether it names a time on the local wall clock (a time of day or a date), as an alarm's must.
        var isClockTime: Bool {
            switch self {
            case .at, .on: true
            case .now, .afterInterval: false
            }
        }

        /// The value as the config file writes it.
        var text: String {
            switch self {
            case .now: "now"
            case .afterInterval: "after-interval"
            case .at(let time): time.text
            case .on(let date): date.text
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
            case .on(let date): max(wallNow.duration(to: date.instant(utcOffset: utcOffset)), .zero)
            }
        }
    }
}
