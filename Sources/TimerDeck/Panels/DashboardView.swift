import RunLoopKit
import TerminalUI

/// Draws a ``DashboardSnapshot`` on a screen: the parts asked for, then one flush.
///
/// With the help overlay open, the panels draw through a canvas that leaves the overlay's cells
/// alone, so a ripple frame costs what it costs without the overlay and the overlay is drawn once.
final class DashboardView {
    let screen: any Screen
    private var lastSize: Size?
    /// The overlay last drawn: the help, a stopwatch's laps, or none.
    private var overlayWas: Overlay?
    private enum Overlay: Equatable {
        case help
        case laps(RowID)
    }
    /// The inspector's columns as last drawn: rows redrawn alone keep them, new ones redraw it all.
    private var inspectorColumns: TableFit?

    /// A view on `screen`.
    init(screen: any Screen) {
        self.screen = screen
    }

    /// Draws `parts` of `snapshot` and the lines of `rows` (everything after a size change) and
    /// flushes once; nothing at all when there is nothing to draw.
    func render(_ snapshot: DashboardSnapshot, parts requested: ViewParts, rows: Set<RowID> = []) {
        var parts = requested
        let state = snapshot.state
        let overlay: Overlay? = state.isHelpVisible ? .help : state.lapsShown.map { .laps($0) }
        if screen.size != lastSize || overlay != overlayWas {
            parts = .all
            if screen.size != lastSize { screen.canvas.fill() }
            lastSize = screen.size
            overlayWas = overlay
        }
        guard !parts.isEmpty || !rows.isEmpty else { return }
        let layout = state.layout
        // The focus view fits any size: it takes the whole screen, drawn from the state every time.
        if state.page == .bigDigits && !(state.isHelpVisible && layout.fits) {
            BigDigitsPanel.draw(snapshot, on: screen.canvas)
            screen.flush()
            return
        }
        guard layout.fits else {
            MinimumSize.draw(on: screen, minimum: DashboardLayout.minimumSize)
            screen.flush()
            return
        }
        let canvas = overlay != nil ? screen.canvas.masking(layout.help) : screen.canvas
        if state.page != .panels {
            drawPage(snapshot, on: canvas)
            return
        }
        let focus = state.focus
        if parts.contains(.title) { TitleBar.draw(snapshot, on: canvas.region(layout.title)) }
        if parts.contains(.countdowns), let countdowns = layout.countdowns {
            CountdownPanel.draw(snapshot, on: canvas.region(countdowns), focused: focus == .countdowns)
        } else if !rows.isEmpty, let countdowns = layout.countdowns {
            CountdownPanel.drawRows(rows, of: snapshot, on: canvas.region(countdowns), focused: focus == .countdowns)
        }
        if parts.contains(.ticker), let ticker = layout.ticker {
            TickerPanel.draw(snapshot, on: canvas.region(ticker), focused: focus == .ticker)
        }
        let columns =
            parts.contains(.inspector) || !rows.isEmpty
            ? InspectorPanel.layout(snapshot, width: layout.inspector.width - 2) : inspectorColumns
        if parts.contains(.inspector) || columns != inspectorColumns {
            InspectorPanel.draw(snapshot, on: canvas.region(layout.inspector), focused: focus == .inspector)
            inspectorColumns = columns
        } else if !rows.isEmpty {
            InspectorPanel.drawRows(
                rows, of: snapshot, on: canvas.region(layout.inspector), focused: focus == .inspector)
        }
        if parts.contains(.log) { FireLogPanel.draw(snapshot, on: canvas.region(layout.log), focused: focus == .log) }
        if parts.contains(.uploads), let uploads = layout.uploads {
            UploadPanel.draw(snapshot, on: canvas.region(uploads), focused: focus == .uploads)
        }
        if parts.contains(.status) || parts.contains(.title) {
            StatusBar.draw(snapshot, on: canvas.region(layout.status))
        }
        if parts.contains(.help), state.isHelpVisible {
            HelpOverlay.draw(snapshot.state, on: screen.canvas.region(layout.help))
        } else if parts.contains(.help), case .laps(let id) = overlay {
            LapsOverlay.draw(state[id], on: screen.canvas.region(layout.help))
        }
        screen.flush()
    }
}
