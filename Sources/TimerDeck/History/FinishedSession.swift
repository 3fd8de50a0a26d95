import KeptTimers
import RunLoopKit

/// A countdown, alarm or stopwatch session that finished: when it started and ended on the wall
/// clock, the pauses between, and how it ended. The history file keeps one a line.
///
/// ```
/// countdown	tea	ended	1767225600000000000	1767225780000000000	1767225610000000000-1767225620000000000
/// ```
struct FinishedSession: Equatable, Sendable {
    /// What kind of timer it was.
    enum Kind: String, Sendable, CaseIterable {
        case countdown, alarm, stopwatch
    }

    /// How it finished.
    enum Outcome: String, Sendable, CaseIterable {
        /// A countdown reached its end (back at `Send`).
        case ended
        /// An alarm rang.
        case rang
        /// A key stopped it (`s`, `x`, Enter on an overtime countdown), before or after its end.
        case stopped
        /// `d` deleted it.
        case deleted
    }

    /// A pause: held from `start` to `end`, wall-clock instants.
    struct Pause: Equatable, Sendable {
        var start: Instant
        var end: Instant
    }

    var kind: Kind
    var name: String
    var outcome: Outcome
    var start: Instant
    var end: Instant
    var pauses: [Pause] = []

    /// The time it ran: from its start to its end, less its pauses.
    var running: Duration {
        pauses.reduce(start.duration(to: end)) { $0 - $1.start.duration(to: $1.end) }
    }

    /// The history file's line.
    var line: String {
        let held = pauses.map { "\($0.start.nanoseconds)-\($0.end.nanoseconds)" }.joined(separator: ",")
        return [kind.rawValue, name, outcome.rawValue, String(start.nanoseconds), String(end.nanoseconds), held]
            .joined(separator: "\t")
    }
}

extension FinishedSession {
    /// Reads a line ``line`` wrote; `nil` for anything else.
    init?(line: Substring) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 6, let kind = Kind(rawValue: String(fields[0])),
            TimerName.isValid(String(fields[1])), let outcome = Outcome(rawValue: String(fields[2])),
            let start = Int64(fields[3]), let end = Int64(fields[4]), start <= end
        else { return nil }
        var pauses: [Pause] = []
        for pause in fields[5].split(separator: ",") {
            let ends = pause.split(separator: "-")
            guard ends.count == 2, let from = Int64(ends[0]), let to = Int64(ends[1]), from <= to else { return nil }
            pauses.append(Pause(start: Instant(nanoseconds: from), end: Instant(nanoseconds: to)))
        }
        self.init(
            kind: kind, name: String(fields[1]), outcome: outcome, start: Instant(nanoseconds: start),
            end: Instant(nanoseconds: end), pauses: pauses)
    }
}
