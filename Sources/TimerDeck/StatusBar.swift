import TerminalUI

/// The bottom line: a hint after an ignored key or refused action, otherwise the key hints.
enum StatusBar {
    static func draw(_ dashboard: Dashboard, on canvas: Canvas) {
        canvas.fill(Style(.dim, reverse: true))
        if let hint = dashboard.hint {
            canvas.put(" \(hint)", row: 0, column: 0, style: Style(.warn, bold: true, reverse: true))
        } else {
            canvas.put(" \(Keymap.hints)", row: 0, column: 0, style: Style(.dim, reverse: true))
        }
    }
}
