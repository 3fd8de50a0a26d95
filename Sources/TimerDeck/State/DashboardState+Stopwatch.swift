import KeptTimers
import RunLoopKit

extension DashboardState {
    /// What starting, stopping, holding or resuming `row` asks of its stopwatch, if it is one: the
    /// driver reads the clock and answers with ``Event/stopwatch(_:_:time:)``.
    func stopwatchEffects(_ row: RowState, _ action: Stopwatch.Action) -> [Effect] {
        row.stopwatch == nil ? [] : [.stopwatch(row.id, action)]
    }

    /// The driver read the clock for `action` on row `id`'s stopwatch.
    mutating func stopwatchAction(_ id: RowID, _ action: Stopwatch.Action, at time: Instant) -> [Effect] {
        guard self[id].stopwatch?.apply(action, at: time) == true else { return [] }
        let row = self[id]
        var effects = redraw(row)
        if action == .lap, let lap = row.stopwatch?.laps.last {
            hint =
                "\(row.name): lap \(lap.number) \(ClockText.stopwatch(lap.time)), split \(ClockText.stopwatch(lap.split))"
            effects.append(.render(.status))
        }
        if lapsShown == id { effects.append(.render(.help)) }
        return effects
    }

    /// `L`: a lap of the selected stopwatch while it runs.
    mutating func takeLap(_ row: RowState) -> [Effect] {
        guard let watch = row.stopwatch else {
            hint = "\(row.name) is no stopwatch: L takes a lap of one (drives = \"stopwatch\")"
            return []
        }
        guard watch.isRunning else {
            hint = "\(row.name) is not running: s starts it, p resumes it"
            return []
        }
        return [.stopwatch(row.id, .lap)]
    }

    /// `v`: shows the laps of the selected stopwatch over the panels, or hides them.
    mutating func toggleLaps() -> [Effect] {
        if lapsShown != nil {
            lapsShown = nil
            return [.render(.all)]
        }
        guard let row = selectedRow, row.stopwatch != nil else {
            hint = "select a stopwatch to see its laps (Tab to the SMS panel)"
            return []
        }
        lapsShown = row.id
        return [.render(.all)]
    }

    /// `E`: asks for the file to write the selected stopwatch's laps to, as CSV.
    mutating func askForLapsFile(_ row: RowState) -> [Effect] {
        guard let watch = row.stopwatch, !watch.splits.isEmpty else {
            hint = "\(row.name) has no laps to write: L takes a lap of a running stopwatch"
            return [.render(.status)]
        }
        prompt = Prompt(purpose: .write(.laps(row.id, name: row.name)))
        hint = prompt?.line
        return [.render(.status)]
    }

    /// The text `export` writes: the timers as config, or a stopwatch's laps as CSV.
    func text(of export: Export) -> String {
        switch export {
        case .timers: TimerDefinition.configText(rows.map(\.definition))
        case .laps(let id, _): Self.lapsCSV([self[id]])
        }
    }

    /// The laps of every stopwatch as CSV (what `--laps FILE` receives at the end).
    var allLapsCSV: String { Self.lapsCSV(stopwatchRows) }

    /// The laps of the stopwatches among `rows` as CSV: the header, then a line a lap.
    private static func lapsCSV(_ rows: [RowState]) -> String {
        let lines = rows.flatMap { $0.stopwatch?.csvLines(name: $0.name) ?? [] }
        return ([Stopwatch.csvHeader] + lines).joined(separator: "\n") + "\n"
    }
}
