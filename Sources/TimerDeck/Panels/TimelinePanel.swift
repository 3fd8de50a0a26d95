import KeptTimers
import RunLoopKit
import TerminalUI

/// The timeline view (`4`): the last ``window`` of the fire log, one lane per timer, time running
/// left to right up to now. A column is a slice of time: `│` a fire on time, `▌` a late fire, `█` a
/// fire that stands for skipped ticks (C-T6, C-G4); on the lanes that fired in view, a column where a
/// fire ran in a mode other than the default is shaded `░` (M2). The last line is the legend. It
/// scrolls as time passes.
enum TimelinePanel {
    /// How far back the view reaches.
    static let window: Duration = .seconds(60)
    /// Width of the lane names.
    static let labelWidth = 12
    /// The last line: what each mark means.
    static let legend = "key: │ on time  ▌ late  █ skipped ticks  ░ a fire ran outside the default mode"

    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        canvas.fill()
        canvas.box(title: "Timeline: the last \(DurationText.setting(window)) (1 returns to the dashboard)")
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let columns = inner.width - labelWidth
        guard columns > 0, inner.height > 3 else { return }
        let now = snapshot.loop.now
        let slice = max(window.nanoseconds / Int64(columns), 1)
        let start = now.nanoseconds - slice * Int64(columns)
        // The column of `time`, if it is in view.
        func column(of time: Instant) -> Int? {
            let offset = time.nanoseconds - start
            guard offset >= 0 else { return nil }
            let index = Int(offset / slice)
            return index < columns ? index : (index == columns ? columns - 1 : nil)
        }
        let state = snapshot.state
        var shaded = Array(repeating: false, count: columns)
        var marks: [String: [Character]] = [:]
        for record in state.log.records {
            guard let index = column(of: record.time), record.note == nil else { continue }
            if let mode = record.mode, mode != .default { shaded[index] = true }
            var lane = marks[record.timer] ?? Array(repeating: " ", count: columns)
            let mark: Character = record.ticks > 1 ? "█" : record.lateness.nanoseconds >= slice ? "▌" : "│"
            if lane[index] != "█" { lane[index] = mark }
            marks[record.timer] = lane
        }
        let ago = DurationText.setting(window)
        inner.put(
            PanelText.fit("", labelWidth) + PanelText.fit("-" + ago, columns - 3) + "now", row: 0, column: 0,
            style: Style(.dim))
        for (line, row) in state.rows.enumerated() where line + 2 < inner.height {
            inner.put(PanelText.fit(row.name, labelWidth - 1), row: line + 1, column: 0)
            // A lane with no fire in view gets no band: the band says where fires ran.
            guard let lane = marks[row.name] else { continue }
            let text = String(zip(lane, shaded).map { mark, shade in mark == " " && shade ? "░" : mark })
            inner.put(text, row: line + 1, column: labelWidth, style: Style(.accent))
        }
        inner.put(TextFit.truncate(legend, to: inner.width), row: inner.height - 1, column: 0, style: Style(.dim))
    }
}
