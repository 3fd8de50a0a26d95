import AppPlatform
import Glibc
import RunLoopKit

/// The timers file's text, line for line: the running and paused countdowns, alarms and
/// stopwatches, each by its name, anchored to the wall clock so that a restart can tell how much
/// time passed: a running countdown by the wall-clock instant its count reaches zero, an alarm by
/// its deadline, a running stopwatch by the wall-clock instant it would have started at.
///
/// The file says when it was written (`saved`), so that a start on a clock set back since goes on
/// from what the timers had then; how long each kept countdown is and whether it counts on past
/// its end (`length`), so that `timerdeck status` needs nothing but the file; and the config text
/// of each timer added with `a` (`added`), which only the dashboard reads.
///
/// ```
/// timerdeck-state 3
/// saved	1767226500000000000
/// length	tea	240	overtime
/// countdown	tea	running	1767226800000000000
/// alarm	lunch	running	1767270600000000000
/// stopwatch	run	paused	62000000000	10000000000,62000000000
/// ```
///
/// ```swift
/// let file = TimerFileText(text: "timerdeck-state 3\ncountdown\ttea\tpaused\t42\n")
/// file?.entries   // [.pausedCountdown(name: "tea", remaining: 42)]
/// ```
package struct TimerFileText: Equatable, Sendable {
    /// One timer's saved state.
    package enum Entry: Equatable, Sendable {
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

        /// The timer's name.
        package var name: String {
            switch self {
            case .countdown(let name, _), .pausedCountdown(let name, _), .alarm(let name, _, _),
                .stopwatch(let name, _, _), .pausedStopwatch(let name, _, _):
                name
            }
        }

        /// Whether it is a countdown, running or held.
        package var isCountdown: Bool {
            switch self {
            case .countdown, .pausedCountdown: true
            case .alarm, .stopwatch, .pausedStopwatch: false
            }
        }
    }

    /// How long a countdown is, and what it does at its end.
    package struct CountdownLength: Equatable, Sendable {
        /// Its length in seconds.
        package var seconds: Int
        /// Whether it counts on past its end (`false`: it ends there).
        package var overtime: Bool

        package init(seconds: Int, overtime: Bool) {
            self.seconds = seconds
            self.overtime = overtime
        }
    }

    /// The format this timerdeck writes; it reads this one and ``oldestFormat`` on.
    package static let format = 3
    /// Format 1 had no `saved` line, format 2 no `length` lines.
    package static let oldestFormat = 1
    /// The first line of a file of the format this timerdeck writes.
    package static let header = "timerdeck-state \(format)"

    /// The format of a file a newer timerdeck wrote (its first line `timerdeck-state N`, N above
    /// ``format``), or nil.
    package static func newerFormat(of text: String) -> Int? {
        let first = text.prefix { $0 != "\n" }
        guard first.hasPrefix("timerdeck-state "), let number = Int(first.dropFirst("timerdeck-state ".count)),
            number > format
        else { return nil }
        return number
    }

    /// The file's name in the state directory (``StateDirectoryPath``), beside the outbox.
    package static let fileName = "timers.state"

    /// The text of the file at `path`; `nil` when it cannot be read (a missing file). A timers file
    /// holds a few lines: one of more than a megabyte is not one, and reads as empty.
    package static func contents(ofFileAt path: String) -> String? {
        do {
            let descriptor = try FileIO.open(path, flags: O_RDONLY)
            defer { close(descriptor) }
            let bytes = try FileIO.readAll(descriptor, path: path, maximum: 1 << 20)
            return bytes.count > 1 << 20 ? "" : String(decoding: bytes, as: UTF8.self)
        } catch {
            return nil
        }
    }

    package var entries: [Entry]
    /// The wall-clock instant the file was written at; `nil` in a file of format 1.
    package var savedAt: Instant?
    /// The kept countdowns' lengths by name; empty in a file of format 1 or 2.
    package var countdownLengths: [String: CountdownLength]
    /// The config text of each kept timer that was added with `a`.
    package var addedConfigs: [String]

    package init(
        entries: [Entry] = [], savedAt: Instant? = nil, countdownLengths: [String: CountdownLength] = [:],
        addedConfigs: [String] = []
    ) {
        self.entries = entries
        self.savedAt = savedAt
        self.countdownLengths = countdownLengths
        self.addedConfigs = addedConfigs
    }

    /// The file's text, in the format this timerdeck writes.
    package var text: String {
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
        let lengths = countdownLengths.sorted { $0.key < $1.key }.map { name, length in
            "length\t\(name)\t\(length.seconds)\t\(length.overtime ? "overtime" : "ends")"
        }
        let added = addedConfigs.map { "added\t" + Self.escaped($0) }
        let saved = savedAt.map { ["saved\t\($0.nanoseconds)"] } ?? []
        return ([Self.header] + saved + added + lengths + lines).joined(separator: "\n") + "\n"
    }

    /// Reads a timers file's text, of this format or an older one; `nil` when it is not one, line
    /// for line (then it is corrupt, or from a newer timerdeck: ``newerFormat(of:)``).
    package init?(text: String) {
        self.init()
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let first = lines.first, first.hasPrefix("timerdeck-state "),
            let format = Int(first.dropFirst("timerdeck-state ".count)), (Self.oldestFormat...Self.format) ~= format,
            first == "timerdeck-state \(format)", lines.last == ""
        else { return nil }
        lines.removeFirst()
        lines.removeLast()
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "saved":
                guard format >= 2, savedAt == nil, fields.count == 2, let number = Int64(fields[1]) else { return nil }
                savedAt = Instant(nanoseconds: number)
            case "added":
                guard fields.count == 2, let config = Self.unescaped(fields[1]) else { return nil }
                addedConfigs.append(config)
            case "length":
                guard format >= 3, fields.count == 4, TimerName.isValid(fields[1]), countdownLengths[fields[1]] == nil,
                    let seconds = Int(fields[2]), seconds > 0, fields[3] == "overtime" || fields[3] == "ends"
                else { return nil }
                countdownLengths[fields[1]] = CountdownLength(seconds: seconds, overtime: fields[3] == "overtime")
            default:
                guard let entry = Self.entry(fields) else { return nil }
                entries.append(entry)
            }
        }
    }

    /// The entry a line's `fields` hold, or `nil` when they are not one.
    private static func entry(_ fields: [String]) -> Entry? {
        guard fields.count >= 4, TimerName.isValid(fields[1]), let number = Int64(fields[3]) else { return nil }
        let (name, paused) = (fields[1], fields[2] == "paused")
        guard paused || fields[2] == "running" else { return nil }
        switch (fields[0], fields.count) {
        case ("countdown", 4):
            guard paused else { return .countdown(name: name, endsAt: Instant(nanoseconds: number)) }
            guard let remaining = Int(exactly: number), remaining > 0 else { return nil }
            return .pausedCountdown(name: name, remaining: remaining)
        case ("alarm", 4):
            return .alarm(name: name, deadline: Instant(nanoseconds: number), isPaused: paused)
        case ("stopwatch", 5):
            let parts = fields[4].split(separator: ",", omittingEmptySubsequences: false)
            let splits = fields[4].isEmpty ? [] : parts.compactMap { Int64($0) }.map { Duration.nanoseconds($0) }
            guard fields[4].isEmpty || splits.count == parts.count else { return nil }
            return paused
                ? .pausedStopwatch(name: name, elapsed: .nanoseconds(number), splits: splits)
                : .stopwatch(name: name, startedAt: Instant(nanoseconds: number), splits: splits)
        default:
            return nil
        }
    }

    private static func text(_ splits: [Duration]) -> String {
        splits.map { String($0.nanoseconds) }.joined(separator: ",")
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
}
