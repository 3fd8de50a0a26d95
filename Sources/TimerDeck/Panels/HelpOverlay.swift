import TerminalUI

/// The `?` overlay: the whole keymap. While it is open, keys other than `?`, `Esc` and `q` do nothing.
enum HelpOverlay {
    static func draw(on canvas: Canvas) {
        canvas.fill()
        canvas.box(title: "Keys (? or Esc to close)", style: Style(.accent))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        for (row, line) in Keymap.help.enumerated() {
            inner.put(" \(TextFit.truncate(line, to: inner.width - 1))", row: row, column: 0)
        }
    }
}
