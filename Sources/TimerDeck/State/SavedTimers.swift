import RunLoopKit

/// The running and paused countdowns, alarms and stopwatches as the state file keeps them, each
/// by its name, anchored to the wall clock so that a restart can tell how much time passed: a
/// running countdown by the wall-clock instant its count reaches zero, an alarm by its deadline, a
/// running stopwatch by the wall-clock instant it would have started at.
///
/// The file says when it was written, so that a start on a clock set back since (a wall clock
/// that was ahead and got corrected) goes on from what the timers had then.
///
/// ```
/// timerdeck-state 2
/// saved	1767226500000000000
/// countdown	tea	running	1767226800000000000
/// alarm	lunch	running	1767270600000000000
/// stopwatch	run	paused	62000000000	10000000000,62000000000
/// ```
struct SavedTimers: Equatable, Sendable {
    /// One row's saved state.
    enum Entry: Equatable, Sendable {
        /// A countdown running until the wall-clock instant `endsAt` (past it in overtime).
        case countdown(name: String, endsAt: Instant)
        /// A countdown held with `remaining` seconds left.
        case pausedCountdown(name: String, remaining: Int)
        /// An alarm due at the wall-clock instant `deadline`, held or not.
        case alarm(name: String, deadline: Instant, isPaused: Bool)
        /// A stopwatch that has run since the wall-clock instant `startedAt`, with its laps' splits.
        case stopwatch(name: String, startedAt: Instant, splits: [Duration])
        /// A stopwatch held after running `elapsed`, with its laps' splits.
        case pausedStopwatch(name: String, elapsed: Duration, splits: [Duration])

        /// The row's name.
        var name: String {
            switch self {
            case .countdown(let name, _), .pausedCountdown(let name, _), .alarm(let name, _, _),
                .stopwatch(let name, _, _), .pausedStopwatch(let name, _, _):
                name
            }
        }
    }

    /// The format this timerdeck writes; it reads this one and ``oldestFormat`` on.
    static let format = 2
    /// Format 1 had no `saved` line.
    static let oldestFormat = 1
    /// The first line of a state file.
    static let header = "timerdeck-state \(format)"

    /// The format of a state file a newer timerdeck wrote (its first line `timerdeck-state N`, N
    /// above ``format``), or nil.
    static func newerFormat(of text: String) -> Int? {
        let first = text.prefix { $0 != "\n" }
        guard first.hasPrefix("timerdeck-state "), let number = Int(first.dropFirst("timerdeck-state ".count)),
            number > format
        else { return nil }
        return number
    }
    /// The instants and times kept, to the millisecond: readings between two fires round alike.
    private static let grain: Int64 = 1_000_000

    var entries: [Entry] = []
    /// The wall-clock instant the file was written at; `nil` in a file of format 1.
    var savedAt: Instant?
    /// The definitions of the kept rows that were added with `a` (the config does not have them):
    /// a restart adds them again before restoring them.
    var added: [TimerDefinition] = []

    /// The rows of `state` worth keeping, read at `now` (the loop's uptime clock) and `wallNow`;
    /// `nextFire` gives a row's next fire on the uptime clock, as its adapter reads it.
    init(_ state: DashboardState, now: Instant, wallNow: Instant, nextFire: (RowID) -> Instant?) {
        savedAt = Self.rounded(wallNow)
        for row in state.rows {
            guard let entry = Self.entry(of: row, now: now, wallNow: wallNow, nextFire: nextFire) else { continue }
            entries.append(entry)
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

    init(entries: [Entry] = [], added: [TimerDefinition] = [], savedAt: Instant? = nil) {
        self.entries = entries
        self.added = added
        self.savedAt = savedAt
    }

    private static func rounded(_ instant: Instant) -> Instant {
        Instant(nanoseconds: (instant.nanoseconds + grain / 2) / grain * grain)
    }

    private static func rounded(_ duration: Duration) -> Duration {
        .nanoseconds((duration.nanoseconds + grain / 2) / grain * grain)
    }

    /// The file's text.
    var text: String {
        let lines = entries.map { entry -> String in
            switch entry {
            case .countdown(let name, let endsAt): "countdown\t\(name)\trunning\t\(endsAt.nanoseconds)"
            case .pausedCountdown(let name, let remaining): "countdown\t\(name)\tpaused\t\(remaining)"
            case .alarm(let name, let deadline, let paused):
                "alarm\t\(name)\t\(paused ? "paused" : "running")\t\(deadline.nanoseconds)"
            case .stopwatch(let name, let startedAt, let splits):
                "stopwatch\t\(name)\trunning\t\(startedAt.nanoseconds)\t\(Self.text(splits))"
            case .pausedStopwatch(let name, let elapsed, let splits):
                "stopwatch\t\(name)\tpaused\t\(elapsed.nanoseconds)\t\(Self.text(splits))"
            }
        }
        let definitions = added.map { "added\t" + Self.escaped(TimerDefinition.configText([$0])) }
        let saved = savedAt.map { ["saved\t\($0.nanoseconds)"] } ?? []
        return ([Self.header] + saved + definitions + lines).joined(separator: "\n") + "\n"
    }

    /// `text` on one line: backslash, newline and tab written `\\`, `\n`, `\t`.
    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result
    }

    /// The text ``escaped(_:)`` wrote; `nil` for a lone or unknown escape.
    private static func unescaped(_ text: String) -> String? {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "\\": result.append("\\")
                case "n": result.append("\n")
                case "t": result.append("\t")
                default: return nil
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return escaping ? nil : result
    }

    private static func text(_ splits: [Duration]) -> String {
        splits.map { String($0.nanoseconds) }.joined(separator: ",")
    }

    /// Reads a state file's text; `nil` when it is not one, line for line (then it is corrupt).
    init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let readable = (Self.oldestFormat...Self.format).map { "timerdeck-state \($0)" }
        guard let first = lines.first, readable.contains(first), lines.last == "" else { return nil }
        lines.removeFirst()
        lines.removeLast()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            if fields.first == "saved" {
                guard first == Self.header, savedAt == nil, fields.count == 2, let number = Int64(fields[1]) else {
                    return nil
                }
                savedAt = Instant(nanoseconds: number)
                continue
            }
            if fields.first == "added" {
                guard fields.count == 2, let text = Self.unescaped(fields[1]),
                    let timers = try? Config.parse(text).timers, timers.count == 1
                else { return nil }
                added += timers
                continue
            }
            guard fields.count >= 4, TimerDefinition.isValidName(fields[1]), let number = Int64(fields[3]) else {
                return nil
            }
            let (name, paused) = (fields[1], fields[2] == "paused")
            guard paused || fields[2] == "running" else { return nil }
            switch (fields[0], fields.count) {
            case ("countdown", 4):
                guard !paused else {
                    guard let remaining = Int(exactly: number), remaining > 0 else { return nil }
                    entries.append(.pausedCountdown(name: name, remaining: remaining))
                    continue
                }
                entries.append(.countdown(name: name, endsAt: Instant(nanoseconds: number)))
            case ("alarm", 4):
                entries.append(.alarm(name: name, deadline: Instant(nanoseconds: number), isPaused: paused))
            case ("stopwatch", 5):
                let parts = fields[4].split(separator: ",", omittingEmptySubsequences: false)
                let splits = fields[4].isEmpty ? [] : parts.compactMap { Int64($0) }.map { Duration.nanoseconds($0) }
                guard fields[4].isEmpty || splits.count == parts.count else { return nil }
                entries.append(
                    paused
                        ? .pausedStopwatch(name: name, elapsed: .nanoseconds(number), splits: splits)
                        : .stopwatch(name: name, startedAt: Instant(nanoseconds: number), splits: splits))
            default:
                return nil
            }
        }
    }
}
