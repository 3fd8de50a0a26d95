import KeptTimers
import TerminalUI

/// The `v` overlay: a stopwatch's laps, each with its lap time and split, the fastest and the
/// slowest marked; the newest that fit, oldest first.
enum LapsOverlay {
    static func draw(_ row: RowState, on canvas: Canvas) {
        canvas.fill()
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let laps = row.stopwatch?.laps ?? []
        let shown = laps.suffix(max(inner.height - 1, 0))
        let more = shown.count < laps.count ? ", \(laps.count - shown.count) earlier" : ""
        canvas.box(title: "Laps of \(row.name) (\(laps.count)\(more); v or Esc to close)", style: Style(.accent))
        inner.put(" lap  lap time     split", row: 0, column: 0, style: Style(.dim, underline: true))
        guard !laps.isEmpty else {
            inner.put(" no laps yet: L takes one while it runs", row: 1, column: 0, style: Style(.dim))
            return
        }
        for (line, lap) in shown.enumerated() {
            let number = String(lap.number)
            let cells =
                " " + String(repeating: " ", count: max(3 - number.count, 0)) + number + "  "
                + pad(ClockText.stopwatch(lap.time), 11) + "  " + pad(ClockText.stopwatch(lap.split), 11)
            let column = inner.put(cells, row: line + 1, column: 0)
            if lap.isFastest != lap.isSlowest {
                inner.put(
                    lap.isFastest ? " fastest" : " slowest", row: line + 1, column: column,
                    style: Style(lap.isFastest ? .good : .warn, bold: true))
            }
        }
    }

    /// `text` right-aligned in `width` cells.
    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(width - text.count, 0)) + text
    }
}
