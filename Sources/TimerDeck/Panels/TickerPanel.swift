import TerminalUI

/// The ripple animation (S3) with the display link's measured rate, skipped frames and state.
enum TickerPanel {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        canvas.box(title: "Ripple (display link, S3)", style: Style(focused ? .accent : .dim))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        guard let row = snapshot.state.tickerRow, let ticker = row.ticker, inner.height > 1 else { return }
        let picture = Ripple.render(frame: ticker.frame, width: inner.width, height: inner.height - 1)
        for (line, text) in picture.enumerated() {
            inner.put(text, row: line, column: 0, style: Style(.accent))
        }
        let display = snapshot.displayState(of: row)
        let fps = snapshot.reading(of: row).framesPerSecond ?? 0
        let stats = "\(fps > 0 ? String(Int(fps.rounded())) : "–") fps · skipped \(row.missedTicks) · \(display)"
        inner.put(
            PanelText.fit(stats, inner.width), row: inner.height - 1, column: 0,
            style: display == .running ? Style(.good) : PanelText.style(for: display))
    }
}
