import TerminalUI

/// The bottom line: an open prompt and a hint after an ignored key or refused action, otherwise the
/// key hints. A line too long is cut and says which key shows it in full (the help's messages).
enum StatusBar {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        let state = snapshot.state
        canvas.fill(Style(.dim, reverse: true))
        if let hint = state.statusLine {
            canvas.put(
                " \(fitted(hint, state: state))", row: 0, column: 0, style: Style(.warn, bold: true, reverse: true))
        } else {
            canvas.put(
                " \(Keymap.hints(on: state.page, keys: state.keys))", row: 0, column: 0,
                style: Style(.dim, reverse: true))
        }
    }

    /// `hint` in the line's room: whole, or cut with the key that opens the help, where a key can.
    static func fitted(_ hint: String, state: DashboardState) -> String {
        let width = state.layout.hintWidth
        guard CharacterWidth.of(hint) > width else { return hint }
        let helpKey: String? =
            switch state.prompt?.purpose {
            case nil: KeyAction.name(of: state.keys.key(of: .help))
            case .addTimer, .overwrite: "?"
            case .write: nil
            }
        guard let helpKey, !state.isHelpVisible else { return TextFit.truncate(hint, to: width) }
        let more = " [\(helpKey) in full]"
        return TextFit.truncate(hint, to: width - CharacterWidth.of(more)) + more
    }
}
