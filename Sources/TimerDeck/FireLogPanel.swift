import RunLoopKit
import TerminalUI

/// The fire log: every fire with its time, timer, mode, lateness and ticks, newest at the bottom.
/// Scrolling it runs the loop in the tracking mode (M2).
enum FireLogPanel {
    static func draw(_ dashboard: Dashboard, on canvas: Canvas, focused: Bool) {
        canvas.fill()
        let log = dashboard.log
        let back = dashboard.logScrollback
        let title = back > 0 ? "Fire log (\(log.totalAppended) fires, \(back) back)" : "Fire log (\(log.totalAppended) fires)"
        canvas.box(title: title, style: Style(focused ? .accent : .dim))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let header = "    time timer       mode     late   ×"
        inner.put(header, row: 0, column: 1, style: Style(.dim, underline: true))
        let visible = inner.height - 1
        guard visible > 0, log.count > 0 else { return }
        let last = log.count - 1 - back
        let first = max(last - visible + 1, 0)
        for (line, index) in (first...max(last, first)).enumerated() where index < log.count {
            let record = log[index]
            let time = PanelText.fit(Instant(nanoseconds: record.time.nanoseconds - dashboard.startTime.nanoseconds).description, 8)
            let mode = PanelText.fit(record.mode?.rawValue ?? "queue", 8)
            let late = PanelText.fit(DurationText.format(record.lateness), 6)
            let ticks = record.ticks > 1 ? "×\(record.ticks)" : "1"
            let text = "\(time) \(PanelText.fit(record.timer, 11)) \(mode) \(late) \(ticks)"
            let style = record.ticks > 1 ? Style(.warn) : (record.mode == .tracking ? Style(.accent) : .normal)
            inner.put(text, row: line + 1, column: 1, style: style)
        }
    }
}
