import TerminalUI

/// The `?` overlay: the whole keymap, scrolled with ↑ ↓ PgUp PgDn when it does not fit. While it is
/// open, other keys than those, `?`, `Esc` and `q` do nothing.
enum HelpOverlay {
    /// Draws the keys from line `offset` on; a longer list than fits shows where more lie.
    static func draw(from offset: Int, on canvas: Canvas) {
        canvas.fill()
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let lines = Keymap.help.dropFirst(offset).prefix(inner.height)
        let more = [offset > 0 ? "↑" : nil, offset + lines.count < Keymap.help.count ? "↓" : nil].compactMap { $0 }
        let title = more.isEmpty ? "Keys (? or Esc to close)" : "Keys (\(more.joined()) more, ? or Esc to close)"
        canvas.box(title: title, style: Style(.accent))
        for (row, line) in lines.enumerated() {
            inner.put(" \(TextFit.truncate(line, to: inner.width - 1))", row: row, column: 0)
        }
    }
}
