import RunLoopKit

/// A stopwatch as a value: the time it has run, on the dashboard's uptime clock, and its laps.
/// Times come from the driver (``Event/stopwatch(_:_:time:)``), so the value decides nothing about
/// the clock; the time shown is read at render time from the loop's `now`.
///
/// ```swift
/// var watch = Stopwatch()
/// watch.start(at: t0)
/// watch.lap(at: t0 + .seconds(62))   // lap 1: 1:02.000, split 1:02.000
/// watch.elapsed(at: t0 + .seconds(90)) // 1:30.000
/// ```
struct Stopwatch: Equatable, Sendable {
    /// What a key asks of a stopwatch, carried out at the time the driver reads.
    enum Action: Equatable, Sendable {
        /// Start from zero (the laps go).
        case start
        /// Hold / go on.
        case pause, resume
        /// Take a lap.
        case lap
        /// Go on from a restart: `elapsed` run, these laps, running or held.
        case restore(elapsed: Duration, splits: [Duration], running: Bool)
    }

    /// One lap as the laps list shows it.
    struct Lap: Equatable, Sendable {
        /// 1, 2, …
        let number: Int
        /// The time since the start at which it was taken.
        let split: Duration
        /// The time since the previous lap (or the start).
        let time: Duration
        /// Whether it is the fastest or the slowest of two or more laps (both when all are equal).
        var isFastest = false
        var isSlowest = false
    }

    /// The time run before ``since``.
    private(set) var banked: Duration = .zero
    /// When it last started or resumed, while it runs.
    private(set) var since: Instant?
    /// Each lap's split: the time run when it was taken.
    private(set) var splits: [Duration] = []

    /// Whether it runs.
    var isRunning: Bool { since != nil }

    /// The time run at `now`.
    func elapsed(at now: Instant) -> Duration {
        banked + (since.map { $0.duration(to: now) } ?? .zero)
    }

    /// Carries out `action` at `time`; an action that does not apply (a lap while held) changes nothing
    /// and returns `false`.
    @discardableResult
    mutating func apply(_ action: Action, at time: Instant) -> Bool {
        switch action {
        case .start:
            self = Stopwatch()
            since = time
        case .pause:
            guard let since else { return false }
            banked += since.duration(to: time)
            self.since = nil
        case .resume:
            guard since == nil else { return false }
            since = time
        case .lap:
            guard isRunning else { return false }
            splits.append(elapsed(at: time))
        case .restore(let elapsed, let splits, let running):
            (banked, since, self.splits) = (elapsed, running ? time : nil, splits)
        }
        return true
    }

    /// The laps with their times, the fastest and the slowest marked (from two laps on).
    var laps: [Lap] {
        var laps = splits.indices.map { index in
            Lap(number: index + 1, split: splits[index], time: splits[index] - (index > 0 ? splits[index - 1] : .zero))
        }
        guard laps.count > 1, let fastest = laps.map(\.time).min(), let slowest = laps.map(\.time).max() else {
            return laps
        }
        for index in laps.indices {
            laps[index].isFastest = laps[index].time == fastest
            laps[index].isSlowest = laps[index].time == slowest
        }
        return laps
    }

    /// The header line of the laps' CSV.
    static let csvHeader = "stopwatch,lap,lap_seconds,split_seconds,mark"

    /// The laps as lines of CSV under ``csvHeader``, for the stopwatch named `name` (a timer name
    /// needs no quoting): its name, each lap's number, lap time and split in seconds (to the
    /// millisecond) and `fastest` or `slowest`.
    func csvLines(name: String) -> [String] {
        laps.map { lap in
            let mark = lap.isFastest && lap.isSlowest ? "" : lap.isFastest ? "fastest" : lap.isSlowest ? "slowest" : ""
            return "\(name),\(lap.number),\(Self.seconds(lap.time)),\(Self.seconds(lap.split)),\(mark)"
        }
    }

    /// `62.5` as `62.500`.
    static func seconds(_ duration: Duration) -> String {
        let millis = max(duration.nanoseconds, 0) / 1_000_000
        let fraction = String(millis % 1_000)
        return "\(millis / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
