import TerminalUI

/// The bottom line: a hint after an ignored key or refused action, otherwise the key hints.
enum StatusBar {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        canvas.fill(Style(.dim, reverse: true))
        if let hint = snapshot.state.hint {
            canvas.put(
                " \(TextFit.truncate(hint, to: snapshot.state.layout.hintWidth))", row: 0, column: 0,
                style: Style(.warn, bold: true, reverse: true))
        } else {
            canvas.put(
                " \(Keymap.hints(on: snapshot.state.page, keys: snapshot.state.keys))", row: 0, column: 0,
                style: Style(.dim, reverse: true))
        }
    }
}
