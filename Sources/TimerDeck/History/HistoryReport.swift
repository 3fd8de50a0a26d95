import AppPlatform
import KeptTimers
import RunLoopKit
import Uploads

/// What `timerdeck history` prints: the finished sessions the history file keeps, from a time on,
/// as CSV or JSON, with their exact start, end and pauses in UTC (ISO 8601, milliseconds).
///
/// ```swift
/// let report = try HistoryReport(statePath: TimerStateFile.defaultPath, since: "24h", wallNow: wallNow)
/// print(report.text(.csv))
/// ```
package struct HistoryReport: Sendable {
    /// How `history` prints.
    package enum Format: String, CaseIterable, Sendable {
        case csv, json
    }

    /// What `--since` accepts, as its error says.
    package static let sinceAccepted =
        "a local date YYYY-MM-DD, a local date and time YYYY-MM-DDTHH:MM[:SS], or a time ago such as 90m, 24h or 7d"

    let sessions: [FinishedSession]
    /// The lines of the file that were not sessions.
    package let unreadable: Int

    /// The sessions in the history beside the timers file at `statePath` that ended at `since` or
    /// later (`nil`: all), read at wall-clock time `wallNow`.
    /// - Throws: ``HistoryError`` for a `since` that is none of ``sinceAccepted``, or a file that
    ///   cannot be read.
    package init(statePath: String, since: String?, wallNow: Instant) throws(HistoryError) {
        let from = try since.map { text throws(HistoryError) in try Self.instant(since: text, wallNow: wallNow) }
        let file = SessionHistoryFile(besideStateFile: statePath)
        do throws(FileError) {
            let (all, unreadable) = try file.sessions()
            sessions = all.filter { session in from.map { session.end >= $0 } ?? true }
            self.unreadable = unreadable
        } catch {
            throw HistoryError(message: "\(UserText.quote(file.path)): \(error.reason)")
        }
    }

    /// The instant `text` names: a local date (its midnight), a local date and time, or a time ago.
    static func instant(since text: String, wallNow: Instant) throws(HistoryError) -> Instant {
        // A date alone is its midnight.
        let midnight = TimeOfDay(hour: 0, minute: 0).map { "T" + $0.text } ?? ""
        if let date = LocalDateTime(text: text.contains("T") ? text : text + midnight) {
            return date.instant(utcOffset: TimeOfDay.localOffset(at:))
        }
        if text.hasSuffix("d"), let days = Int64(text.dropLast()), days >= 0, days <= 36_500 {
            return wallNow - .seconds(days * 86_400)
        }
        if let ago = DurationText.parse(text) { return wallNow - ago }
        throw HistoryError(message: "option --since: \(UserText.quote(text)) is not \(sinceAccepted)")
    }

    /// The report in `format`, without the final line end.
    package func text(_ format: Format) -> String {
        let time = { (instant: Instant) in Sample.iso8601(millisecondsSince1970: instant.nanoseconds / 1_000_000) }
        let seconds = { (duration: Duration) in Stopwatch.seconds(duration) }
        switch format {
        case .csv:
            let header = "kind,name,outcome,start,end,running_seconds,pauses"
            let rows = sessions.map { session in
                let pauses = session.pauses.map { "\(time($0.start))/\(time($0.end))" }.joined(separator: " ")
                return [
                    session.kind.rawValue, session.name, session.outcome.rawValue, time(session.start),
                    time(session.end), seconds(session.running), pauses,
                ].joined(separator: ",")
            }
            return ([header] + rows).joined(separator: "\n")
        case .json:
            let quoted = { (text: String) in text.quotedForJSONAndTOML }
            let rows = sessions.map { session in
                let pauses = session.pauses.map {
                    "{\"start\":\(quoted(time($0.start))),\"end\":\(quoted(time($0.end)))}"
                }
                return "{\"kind\":\(quoted(session.kind.rawValue)),\"name\":\(quoted(session.name)),"
                    + "\"outcome\":\(quoted(session.outcome.rawValue)),\"start\":\(quoted(time(session.start))),"
                    + "\"end\":\(quoted(time(session.end))),\"running_seconds\":\(seconds(session.running)),"
                    + "\"pauses\":[\(pauses.joined(separator: ","))]}"
            }
            return "[" + rows.joined(separator: ",") + "]"
        }
    }
}

/// Why `timerdeck history` cannot print: what is wrong and how to fix it.
package struct HistoryError: Error {
    package let message: String
}
