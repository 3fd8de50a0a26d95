import TerminalUI

/// The SMS resend buttons (S1), each with the mechanism behind it.
enum CountdownPanel {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        canvas.fill()
        canvas.box(title: "SMS resend (S1)", style: Style(focused ? .accent : .dim))
        drawRows(nil, of: snapshot, on: canvas, focused: focused)
    }

    /// Redraws the lines of the rows `ids` (all of them for `nil`), leaving the rest of the panel alone.
    static func drawRows(_ ids: Set<RowID>?, of snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let state = snapshot.state
        for (index, row) in state.buttonRows.enumerated() where index < inner.height && ids?.contains(row.id) != false {
            guard let button = row.button else { continue }
            inner.clear(row: index)
            let selected = focused && state.selected(.countdowns) == index
            inner.put(selected ? "▶" : " ", row: index, column: 0, style: Style(.accent, bold: true))
            let label = "[ \(PanelText.fit(button.label, 11)) ]"
            let buttonStyle =
                button.isEnabled ? Style(.good, bold: true, reverse: selected) : Style(.disabled, reverse: selected)
            var column = inner.put(label, row: index, column: 2, style: buttonStyle)
            let display = snapshot.displayState(of: row)
            // The standard scene's three buttons are told apart by their mechanism; any other row by its name too.
            let isStandard = TimerDefinition.standardScene.contains { $0.name == row.name && $0.drives == .countdown }
            let text = (isStandard ? "" : "\(row.name) · ") + "\(row.kindText) in \(PanelText.mode(row.mode))"
            let room = inner.width - column - 1 - (display.shortText.map { $0.count + 1 } ?? 0)
            column = inner.put(
                " " + TextFit.truncate(text, to: max(room, 0)), row: index, column: column, style: Style(.dim))
            if let short = display.shortText {
                inner.put(" \(short)", row: index, column: column, style: PanelText.style(for: display))
            }
        }
    }
}
