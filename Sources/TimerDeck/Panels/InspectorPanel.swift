import KeptTimers
import TerminalUI

/// Every timer: mechanism, modes, state (running, suspended, invalid, waiting for its mode), next
/// fire, last lateness and missed ticks.
enum InspectorPanel {
    /// Each column's title forms and the width it keeps while there is room.
    static let columns: [(titles: [String], width: Int)] = [
        (["timer"], 11), (["mechanism", "mech"], 16), (["modes"], 8), (["state"], 16), (["next"], 8),
        (["late"], 6), (["missed", "miss"], 6),
    ]

    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        canvas.fill()
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let count = snapshot.state.rows.count
        let shown = window(of: snapshot.state, lines: inner.height)
        // More rows than lines: the title says which are shown and how to reach the others.
        let title =
            shown.count < count ? "Timers (\(shown.lowerBound + 1)–\(shown.upperBound) of \(count), ↑↓)" : "Timers"
        canvas.box(title: title, style: Style(focused ? .accent : .dim))
        let fit = layout(snapshot, width: inner.width)
        var column = 1
        for ((titles, _), width) in zip(columns, fit.widths) {
            inner.put(TableFit.cell(titles, width), row: 0, column: column, style: Style(.dim, underline: true))
            column += width + 1
        }
        drawRows(nil, of: snapshot, on: canvas, focused: focused)
    }

    /// Redraws the lines of the rows `ids` (all of them for `nil`), leaving the rest of the panel alone.
    static func drawRows(_ ids: Set<RowID>?, of snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let state = snapshot.state
        let fit = layout(snapshot, width: inner.width)
        let shown = window(of: state, lines: inner.height)
        for (index, row) in state.rows.enumerated() where shown.contains(index) && ids?.contains(row.id) != false {
            let line = index - shown.lowerBound + 1
            inner.clear(row: line)
            let selected = focused && state.selected(.inspector) == index
            let display = snapshot.displayState(of: row)
            let styles = [
                row.isFlashing
                    ? Style(.warn, bold: true, reverse: true) : Style(.normal, bold: selected, reverse: selected),
                Style(.dim), Style(.accent), PanelText.style(for: display), .normal, .normal,
                row.missedTicks > 0 ? Style(.warn) : .normal,
            ]
            var at = 1
            for (column, (forms, style)) in zip(cells(row, of: snapshot), styles).enumerated() {
                let width = fit.widths[column]
                inner.put(fit.cell(forms, column: column), row: line, column: at, style: style)
                at += width + 1
            }
        }
    }

    /// The rows shown on `lines` lines (one is the header): more rows than lines scroll so the
    /// selected row stays in view.
    static func window(of state: DashboardState, lines: Int) -> Range<Int> {
        let visible = max(lines - 1, 1)
        let first = max(state.selected(.inspector) - visible + 1, 0)
        return first..<min(first + visible, state.rows.count)
    }

    /// The columns' widths for every row of `snapshot` in `width` cells.
    static func layout(_ snapshot: DashboardSnapshot, width: Int) -> TableFit {
        TableFit(
            [columns.map(\.titles)] + snapshot.state.rows.map { cells($0, of: snapshot) },
            preferred: columns.map(\.width), width: width)
    }

    /// A row's cells, each in its forms from the fullest to the shortest.
    private static func cells(_ row: RowState, of snapshot: DashboardSnapshot) -> [[String]] {
        let display = snapshot.displayState(of: row)
        let scheduled = display == .running || display == .waitingForMode
        return [
            [row.name],
            row.mechanismForms,
            [PanelText.mode(row.mode)],
            [display.description] + (display.shortText.map { [$0] } ?? []),
            scheduled ? PanelText.relativeForms(snapshot.reading(of: row).nextFire, now: snapshot.loop.now) : ["—"],
            row.lastLateness.map { DurationText.abbreviations($0) } ?? ["—"],
            [String(row.missedTicks)],
        ]
    }
}
