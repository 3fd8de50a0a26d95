import TerminalUI

/// The ripple animation (S3) with the display link's measured rate, skipped frames and interval.
enum TickerPanel {
    static func draw(_ dashboard: Dashboard, on canvas: Canvas, focused: Bool) {
        canvas.box(title: "Ripple (display link, S3)", style: Style(focused ? .accent : .dim))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        guard let ticker = dashboard.ticker, inner.height > 1 else { return }
        let picture = Ripple.render(frame: ticker.frame, width: inner.width, height: inner.height - 1)
        for (row, line) in picture.enumerated() {
            inner.put(line, row: row, column: 0, style: Style(.accent))
        }
        let loop = dashboard.loop
        let state = ticker.state(inMode: loop.currentMode, commonModes: loop.commonModes)
        let fps = ticker.measuredFPS
        let stats = "\(fps > 0 ? String(Int(fps.rounded())) : "–") fps · skipped \(ticker.missedTicks) · \(state)"
        inner.put(PanelText.fit(stats, inner.width), row: inner.height - 1, column: 0,
                  style: state == .running ? Style(.good) : PanelText.style(for: state))
    }
}
