import TerminalUI

/// The `?` overlay: the messages a panel cut, in full, and the whole keymap, scrolled with ↑ ↓ PgUp
/// PgDn when it does not fit. While it is open, other keys than those, `?`, `Esc` and `q` do nothing.
enum HelpOverlay {
    /// Draws the state's help lines from its offset on; a longer list than fits shows where more lie.
    static func draw(_ state: DashboardState, on canvas: Canvas) {
        canvas.fill()
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let all = state.helpLines
        let offset = state.helpOffset
        let lines = all.dropFirst(offset).prefix(inner.height)
        let more = [offset > 0 ? "↑" : nil, offset + lines.count < all.count ? "↓" : nil].compactMap { $0 }
        let name = state.messages.isEmpty ? "Keys" : "Messages and keys"
        let title = more.isEmpty ? "\(name) (? or Esc to close)" : "\(name) (\(more.joined()) more, ? or Esc to close)"
        canvas.box(title: title, style: Style(.accent))
        for (row, line) in lines.enumerated() {
            inner.put(" \(TextFit.truncate(line, to: inner.width - 1))", row: row, column: 0)
        }
    }
}
