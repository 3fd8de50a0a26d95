import KeptTimers
import RunLoopKit
import TerminalUI

/// The fire log: every fire with its time, timer, mode, lateness and ticks, newest at the bottom.
/// Scrolling it runs the loop in the tracking mode (M2).
enum FireLogPanel {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        canvas.fill()
        let state = snapshot.state
        let log = state.log
        let back = state.scrollback
        let fires = "\(log.totalFires) \(log.totalFires == 1 ? "fire" : "fires")"
        canvas.box(
            title: back > 0 ? "Fire log (\(fires), \(back) back)" : "Fire log (\(fires))",
            style: Style(focused ? .accent : .dim))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        inner.put("    time timer       mode     late   ×", row: 0, column: 1, style: Style(.dim, underline: true))
        let visible = inner.height - 1
        guard visible > 0, log.count > 0 else { return }
        let last = log.count - 1 - back
        let first = max(last - visible + 1, 0)
        for (line, index) in (first...max(last, first)).enumerated() where index < log.count {
            let record = log[index]
            let time = PanelText.fit(PanelText.logTime(snapshot.loop.startTime.duration(to: record.time)), 8)
            let mode = PanelText.fit(record.mode?.rawValue ?? "queue", 8)
            // Abbreviated (1h05m), or a long name shortened with an ellipsis: never cut into another value.
            let late = TableFit.cell(DurationText.abbreviations(record.lateness), 6)
            let ticks = record.ticks > 1 ? "×\(record.ticks)" : "1"
            let text =
                "\(time) \(TableFit.cell([record.timer], 11)) \(mode) \(late) \(ticks)"
                + (record.note.map { "  " + $0 } ?? "")
            let style = record.ticks > 1 ? Style(.warn) : (record.mode == .tracking ? Style(.accent) : .normal)
            inner.put(text, row: line + 1, column: 1, style: style)
        }
    }
}
