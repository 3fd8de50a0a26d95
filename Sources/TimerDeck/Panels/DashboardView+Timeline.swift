import TerminalUI

extension DashboardView {
    /// The timeline view in place of the panels: drawn whole whenever anything changed (a fire,
    /// the once-a-second refresh), with the title and status bars.
    func drawTimeline(_ snapshot: DashboardSnapshot, on canvas: Canvas, parts: ViewParts) {
        let layout = snapshot.state.layout
        TitleBar.draw(snapshot, on: canvas.region(layout.title))
        let body = Rect(row: 1, column: 0, width: layout.size.width, height: max(layout.size.height - 2, 0))
        TimelinePanel.draw(snapshot, on: canvas.region(body))
        StatusBar.draw(snapshot, on: canvas.region(layout.status))
        if snapshot.state.isHelpVisible { HelpOverlay.draw(on: screen.canvas.region(layout.help)) }
        screen.flush()
    }
}
