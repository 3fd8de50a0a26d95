import TerminalUI

/// The top line: the run loop's current mode and nesting depth, the common-modes set, the gesture,
/// and the clock when it is paused or slowed down.
enum TitleBar {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        let loop = snapshot.loop
        canvas.fill(Style(.title, reverse: true))
        var column = canvas.put(" TimerDeck ", row: 0, column: 0, style: Style(.title, bold: true, reverse: true))
        column = canvas.put(" mode: ", row: 0, column: column, style: Style(.title, reverse: true))
        let modeStyle =
            loop.mode == .tracking ? Style(.warn, bold: true, reverse: true) : Style(.title, bold: true, reverse: true)
        column = canvas.put(loop.mode?.rawValue ?? "not running", row: 0, column: column, style: modeStyle)
        column = canvas.put("  depth: \(loop.depth)", row: 0, column: column, style: Style(.title, reverse: true))
        let common = loop.commonModes.map(\.rawValue).joined(separator: ", ")
        column = canvas.put("  common: [\(common)]", row: 0, column: column, style: Style(.title, reverse: true))
        let gesture: String? =
            switch snapshot.state.gesture {
            case .none: nil
            case .scrolling: "  ⇅ scrolling"
            case .held: "  ⇅ held (t)"
            case .dragging: "  ⇅ dragging"
            }
        if let gesture {
            column = canvas.put(gesture, row: 0, column: column, style: Style(.warn, bold: true, reverse: true))
        }
        let clock = snapshot.state.time ?? TimeStatus()
        var time: [String] = []
        if clock.isPaused { time.append("⏸ paused") }
        if clock.rate != .normal { time.append(clock.rate.label) }
        if !time.isEmpty {
            canvas.put(
                "  " + time.joined(separator: " "), row: 0, column: column,
                style: Style(.warn, bold: true, reverse: true))
        }
    }
}
