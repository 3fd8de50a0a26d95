import TerminalUI

extension DashboardView {
    /// A page in place of the panels (the lab, the phases, the timeline; the focus view under the
    /// help): drawn whole whenever
    /// anything changed, with the title and status bars.
    func drawPage(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        let layout = snapshot.state.layout
        TitleBar.draw(snapshot, on: canvas.region(layout.title))
        let body = canvas.region(
            Rect(row: 1, column: 0, width: layout.size.width, height: max(layout.size.height - 2, 0)))
        switch snapshot.state.page {
        case .lab: LabPanel.draw(snapshot, on: body)
        case .phases: PhasesPanel.draw(snapshot, on: body)
        case .bigDigits: BigDigitsPanel.draw(snapshot, on: body)
        case .timeline, .panels: TimelinePanel.draw(snapshot, on: body)
        }
        StatusBar.draw(snapshot, on: canvas.region(layout.status))
        if snapshot.state.isHelpVisible {
            HelpOverlay.draw(snapshot.state, on: screen.canvas.region(layout.help))
        }
        screen.flush()
    }
}
