import KeptTimers
import RunLoopKit

/// The running and paused countdowns, alarms and stopwatches the timers file keeps
/// (``TimerFileText``, its format), with the definitions of those added with `a`, as the dashboard
/// saves and restores them.
struct SavedTimers: Equatable, Sendable {
    typealias Entry = TimerFileText.Entry
    typealias CountdownLength = TimerFileText.CountdownLength

    /// The instants and times kept, to the millisecond: readings between two fires round alike.
    private static let grain: Int64 = 1_000_000

    var entries: [Entry] = []
    /// The wall-clock instant the file was written at; `nil` in a file of format 1.
    var savedAt: Instant?
    /// The definitions of the kept rows that were added with `a` (the config does not have them):
    /// a restart adds them again before restoring them.
    var added: [TimerDefinition] = []
    /// The kept countdowns' lengths, written for `timerdeck status`; a restart takes them from the
    /// definitions.
    var countdownLengths: [String: CountdownLength] = [:]

    /// The rows of `state` worth keeping, read at `now` (the loop's uptime clock) and `wallNow`;
    /// `nextFire` gives a row's next fire on the uptime clock, as its adapter reads it.
    init(_ state: DashboardState, now: Instant, wallNow: Instant, nextFire: (RowID) -> Instant?) {
        savedAt = Self.rounded(wallNow)
        for row in state.rows {
            guard let entry = Self.entry(of: row, now: now, wallNow: wallNow, nextFire: nextFire) else { continue }
            entries.append(entry)
            if entry.isCountdown { countdownLengths[row.name] = row.definition.countdownLength }
            if row.id.number >= state.sceneRowCount { added.append(row.definition) }
        }
    }

    /// What the file keeps of `row`, read as ``init(_:now:wallNow:nextFire:)`` reads each row:
    /// `nil` for a row that is neither running nor held, or of a kind the file does not keep.
    static func entry(of row: RowState, now: Instant, wallNow: Instant, nextFire: (RowID) -> Instant?) -> Entry? {
        func wall(_ instant: Instant) -> Instant { rounded(wallNow + now.duration(to: instant)) }
        guard row.run.isScheduled else { return nil }
        let paused = row.run == .suspended
        if let button = row.button {
            guard let left = button.secondsLeft else { return nil }
            if paused { return .pausedCountdown(name: row.name, remaining: left) }
            // Its next fire takes the count to left - 1.
            return nextFire(row.id).map { .countdown(name: row.name, endsAt: wall($0) + .seconds(left - 1)) }
        } else if let watch = row.stopwatch {
            let elapsed = rounded(watch.elapsed(at: now))
            return watch.isRunning
                ? .stopwatch(name: row.name, startedAt: wall(now) - elapsed, splits: watch.splits)
                : .pausedStopwatch(name: row.name, elapsed: elapsed, splits: watch.splits)
        } else if row.kind.isAlarm {
            let deadline =
                paused
                ? row.keptDeadline ?? wallNow + row.definition.firstFire.delay(interval: .zero, wallNow: wallNow)
                : nextFire(row.id).map(wall)
            return deadline.map { .alarm(name: row.name, deadline: $0, isPaused: paused) }
        }
        return nil
    }

    init(
        entries: [Entry] = [], added: [TimerDefinition] = [], savedAt: Instant? = nil,
        countdownLengths: [String: CountdownLength] = [:]
    ) {
        self.entries = entries
        self.added = added
        self.savedAt = savedAt
        self.countdownLengths = countdownLengths
    }

    private static func rounded(_ instant: Instant) -> Instant {
        Instant(nanoseconds: (instant.nanoseconds + grain / 2) / grain * grain)
    }

    private static func rounded(_ duration: Duration) -> Duration {
        .nanoseconds((duration.nanoseconds + grain / 2) / grain * grain)
    }

    /// The file's text.
    var text: String {
        TimerFileText(
            entries: entries, savedAt: savedAt, countdownLengths: countdownLengths,
            addedConfigs: added.map { TimerDefinition.configText([$0]) }
        ).text
    }

    /// Reads a state file's text; `nil` when it is not one, line for line (then it is corrupt).
    init?(text: String) {
        guard let file = TimerFileText(text: text) else { return nil }
        var added: [TimerDefinition] = []
        for config in file.addedConfigs {
            guard let timers = try? Config.parse(config).timers, timers.count == 1 else { return nil }
            added += timers
        }
        self.init(entries: file.entries, added: added, savedAt: file.savedAt, countdownLengths: file.countdownLengths)
    }
}

extension TimerDefinition {
    /// How long the countdown it drives is, and whether it counts on past its end.
    var countdownLength: TimerFileText.CountdownLength {
        TimerFileText.CountdownLength(seconds: countdownSeconds, overtime: overtime)
    }
}
