import TerminalUI

/// The `?` overlay: the whole keymap.
enum HelpOverlay {
    static func draw(on canvas: Canvas) {
        canvas.fill()
        canvas.box(title: "Keys (? or Esc to close)", style: Style(.accent))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        for (row, line) in Keymap.help.enumerated() {
            inner.put(" \(line)", row: row, column: 0)
        }
    }
}
