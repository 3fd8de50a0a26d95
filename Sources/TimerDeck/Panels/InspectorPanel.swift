import TerminalUI

/// Every timer: mechanism, modes, state (running, suspended, invalid, waiting for its mode), next
/// fire, last lateness and missed ticks.
enum InspectorPanel {
    static let columns: [(title: String, width: Int)] = [
        ("timer", 11), ("mechanism", 16), ("modes", 8), ("state", 16), ("next", 8), ("late", 6), ("missed", 6),
    ]

    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        canvas.fill()
        canvas.box(title: "Timers", style: Style(focused ? .accent : .dim))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        var column = 1
        for (title, width) in columns {
            inner.put(PanelText.fit(title, width), row: 0, column: column, style: Style(.dim, underline: true))
            column += width + 1
        }
        drawRows(nil, of: snapshot, on: canvas, focused: focused)
    }

    /// Redraws the lines of the rows `ids` (all of them for `nil`), leaving the rest of the panel alone.
    static func drawRows(_ ids: Set<RowID>?, of snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let state = snapshot.state
        // More rows than lines: the list scrolls so the selected row stays in view.
        let visible = max(inner.height - 1, 1)
        let first = max(state.selected(.inspector) - visible + 1, 0)
        for (index, row) in state.rows.enumerated()
        where index >= first && index - first < visible && ids?.contains(row.id) != false {
            let line = index - first + 1
            inner.clear(row: line)
            let selected = focused && state.selected(.inspector) == index
            let display = snapshot.displayState(of: row)
            let scheduled = display == .running || display == .waitingForMode
            let cells: [(String, Style)] = [
                (
                    row.name,
                    row.isFlashing
                        ? Style(.warn, bold: true, reverse: true) : Style(.normal, bold: selected, reverse: selected)
                ),
                (row.mechanismText, Style(.dim)),
                (PanelText.mode(row.mode), Style(.accent)),
                (display.description, PanelText.style(for: display)),
                (
                    scheduled ? PanelText.relative(snapshot.reading(of: row).nextFire, now: snapshot.loop.now) : "—",
                    .normal
                ),
                (row.lastLateness.map { DurationText.format($0) } ?? "—", .normal),
                (String(row.missedTicks), row.missedTicks > 0 ? Style(.warn) : .normal),
            ]
            var at = 1
            for (cell, width) in zip(cells, columns.map(\.width)) {
                inner.put(PanelText.fit(cell.0, width), row: line, column: at, style: cell.1)
                at += width + 1
            }
        }
    }
}
