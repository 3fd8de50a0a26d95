import TerminalUI

/// The SMS resend buttons (S1), each with the mechanism behind it.
enum CountdownPanel {
    static func draw(_ dashboard: Dashboard, on canvas: Canvas, focused: Bool) {
        canvas.fill()
        canvas.box(title: "SMS resend (S1)", style: Style(focused ? .accent : .dim))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let loop = dashboard.loop
        for (index, row) in dashboard.countdowns.enumerated() where index < inner.height {
            let selected = focused && dashboard.selected(.countdowns) == index
            let marker = selected ? "▶" : " "
            inner.put(marker, row: index, column: 0, style: Style(.accent, bold: true))
            let label = "[ \(PanelText.fit(row.countdown.label, 11)) ]"
            let buttonStyle = row.countdown.isEnabled ? Style(.good, bold: true, reverse: selected) : Style(.disabled, reverse: selected)
            var column = inner.put(label, row: index, column: 2, style: buttonStyle)
            let state = row.state(inMode: loop.currentMode, commonModes: loop.commonModes)
            column = inner.put(" \(row.kind) in \(PanelText.modes(row.modes))", row: index, column: column, style: Style(.dim))
            if let short = shortState(state) {
                inner.put(" \(short)", row: index, column: column, style: PanelText.style(for: state))
            }
        }
    }
}

/// The SMS panel's one-word state; nothing while simply running or idle.
private func shortState(_ state: DeckTimerState) -> String? {
    switch state {
    case .idle, .running: nil
    case .suspended: "paused"
    case .waitingForMode: "waiting"
    case .invalid: "invalid"
    }
}

extension Rect {
    /// This rectangle in the coordinates of `outer` (whose origin becomes 0,0).
    func relative(to outer: Rect) -> Rect {
        Rect(row: row - outer.row, column: column - outer.column, width: width, height: height)
    }
}
