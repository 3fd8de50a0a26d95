internal import FoundationEssentials
import TimeUnits

/// One line of a `--trace` file, as ``TracePlot`` reads it back.
struct TraceLine: Decodable, Equatable, Sendable {
    /// `fire`, `nested-run`, `nested-run-end`, `mode` (a timer moved), `sleep` (simulated) or `wake-up`.
    var event: String
    /// Nanoseconds since the dashboard started.
    var time: Int64
    /// The timer's name (fires and moves).
    var timer: String?
    /// The run loop mode.
    var mode: String?
    /// How late it fired, in nanoseconds (fires only).
    var lateness: Int64?
    /// Grid points it stands for (fires only).
    var ticks: Int?
    /// How long a simulated sleep lasted, in nanoseconds (sleeps only).
    var sleep: Int64?
    /// What a `fire` line that is not a fire tells (a hook's end), or nil for a fire.
    var note: String?

    /// Whether the line is a timer's fire: a `fire` event without a note.
    var isFire: Bool { event == "fire" && note == nil }

    private enum CodingKeys: String, CodingKey {
        case event, timer, mode, ticks, note
        case time = "t_ns"
        case lateness = "lateness_ns"
        case sleep = "sleep_ns"
    }

    /// The events a trace holds.
    static let events = ["fire", "nested-run", "nested-run-end", "mode", "sleep", "wake-up", "lap"]

    /// The trace lines of a trace file's `text` lines; an unreadable line is named with what is wrong.
    static func parse(_ text: some Sequence<some StringProtocol>, source: String) throws(TracePlotError) -> [TraceLine]
    {
        var lines: [TraceLine] = []
        let decoder = JSONDecoder()
        for (index, line) in text.enumerated() where !line.allSatisfy(\.isWhitespace) {
            let parsed: TraceLine
            do {
                parsed = try decoder.decode(TraceLine.self, from: Data(line.utf8))
            } catch {
                throw TracePlotError(
                    message: "\(source):\(index + 1): not a trace line (a JSON object with \"event\" and \"t_ns\", "
                        + "as timerdeck --trace writes them)")
            }
            guard events.contains(parsed.event) else {
                throw TracePlotError(
                    message: "\(source):\(index + 1): unknown event \(UserText.quote(parsed.event)) "
                        + "(accepted: \(events.map { "\"\($0)\"" }.joined(separator: ", ")))")
            }
            guard parsed.time >= 0, (parsed.lateness ?? 0) >= 0, parsed.lateness ?? 0 <= parsed.time,
                (parsed.ticks ?? 1) >= 1
            else {
                throw TracePlotError(
                    message: "\(source):\(index + 1): t_ns and lateness_ns must be 0 or more (lateness_ns at most "
                        + "t_ns) and ticks 1 or more")
            }
            guard !["fire", "mode"].contains(parsed.event) || parsed.timer != nil else {
                throw TracePlotError(message: "\(source):\(index + 1): a \"\(parsed.event)\" line needs its \"timer\"")
            }
            lines.append(parsed)
        }
        return lines
    }
}
