import KeptTimers
import RunLoopKit

/// `--trace FILE`: every fire the fire log records, every nested run of the loop, every move of a
/// timer to another mode, every simulated sleep and, while the phases page is shown, every wake-up;
/// one JSON object per line (``TraceFile/fields`` lists them). Times are nanoseconds on the dashboard's uptime
/// clock from its start, so a headless run's trace is the same every time.
///
/// ```swift
/// let trace = try TraceFile(path: "run.jsonl")
/// driver.trace = trace
/// ```
package final class TraceFile {
    private let file: LineFile

    /// The first write error, if any (the trace then stops; the exit report says so).
    package var failure: String? { file.failure.map { "trace file " + $0 } }

    /// Creates `path`; a file already there is refused unless `replacing`, when it is truncated.
    package init(path: String, replacing: Bool = false) throws(TraceFileError) {
        file = try LineFile(path: path, role: "trace file", exclusive: !replacing)
    }

    /// Writes one fire.
    func fire(
        _ record: FireRecord, since start: Instant, mechanism: String, depth: Int
    ) {
        let time = start.duration(to: record.time).nanoseconds
        write(
            "{\"event\":\"fire\",\"t_ns\":\(time),\"timer\":\(Self.quoted(record.timer)),"
                + "\"mechanism\":\(Self.quoted(mechanism)),\"mode\":\(Self.quoted(record.mode?.rawValue ?? "")),"
                + "\"scheduled_ns\":\(time - record.lateness.nanoseconds),\"lateness_ns\":\(record.lateness.nanoseconds),"
                + "\"ticks\":\(record.ticks),\"depth\":\(depth)"
                + (record.note.map { ",\"note\":\(Self.quoted($0))" } ?? "") + "}")
    }

    /// Writes the start (`"nested-run"`) or the end (`"nested-run-end"`) of a nested run in `mode`.
    func nestedRun(ended: Bool, mode: RunLoop.Mode, at time: Instant, since start: Instant, depth: Int) {
        write(
            "{\"event\":\"\(ended ? "nested-run-end" : "nested-run")\",\"t_ns\":\(start.duration(to: time).nanoseconds),"
                + "\"mode\":\(Self.quoted(mode.rawValue)),\"depth\":\(depth)}")
    }

    /// Writes a timer's move to `mode` (`m`).
    func move(timer: String, to mode: RunLoop.Mode, at time: Instant, since start: Instant, depth: Int) {
        write(
            "{\"event\":\"mode\",\"t_ns\":\(start.duration(to: time).nanoseconds),\"timer\":\(Self.quoted(timer)),"
                + "\"mode\":\(Self.quoted(mode.rawValue)),\"depth\":\(depth)}")
    }

    /// Writes a stopwatch's lap: its split and its lap time.
    func lap(timer: String, _ lap: Stopwatch.Lap, at time: Instant, since start: Instant, depth: Int) {
        write(
            "{\"event\":\"lap\",\"t_ns\":\(start.duration(to: time).nanoseconds),\"timer\":\(Self.quoted(timer)),"
                + "\"split_ns\":\(lap.split.nanoseconds),\"lap_ns\":\(lap.time.nanoseconds),\"depth\":\(depth)}")
    }

    /// Writes a simulated machine sleep of `length` (`z`, G3): continuous and wall time jumped by it.
    func sleep(_ length: Duration, at time: Instant, since start: Instant, depth: Int) {
        write(
            "{\"event\":\"sleep\",\"t_ns\":\(start.duration(to: time).nanoseconds),"
                + "\"sleep_ns\":\(length.nanoseconds),\"depth\":\(depth)}")
    }

    /// Writes the end of a sleep of the loop running `mode`, and why it ended.
    func wakeUp(
        _ reason: RunLoop.WakeReason, mode: RunLoop.Mode?, at time: Instant, since start: Instant, depth: Int
    ) {
        write(
            "{\"event\":\"wake-up\",\"t_ns\":\(start.duration(to: time).nanoseconds),"
                + "\"reason\":\(Self.quoted(reason.label)),\"mode\":\(Self.quoted(mode?.rawValue ?? "")),"
                + "\"depth\":\(depth)}")
    }

    private func write(_ line: String) {
        file.write(line)
    }

    /// `text` as a JSON string.
    static func quoted(_ text: String) -> String { text.quotedForJSONAndTOML }
}
