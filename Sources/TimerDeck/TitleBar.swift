import TerminalUI

/// The top line: the run loop's current mode and nesting depth, the common-modes set, the gesture.
enum TitleBar {
    static func draw(_ dashboard: Dashboard, on canvas: Canvas) {
        let loop = dashboard.loop
        canvas.fill(Style(.title, reverse: true))
        var column = canvas.put(" TimerDeck ", row: 0, column: 0, style: Style(.title, bold: true, reverse: true))
        let mode = loop.currentMode?.rawValue ?? "not running"
        column = canvas.put(" mode: ", row: 0, column: column, style: Style(.title, reverse: true))
        let modeStyle = loop.currentMode == .tracking ? Style(.warn, bold: true, reverse: true) : Style(.title, bold: true, reverse: true)
        column = canvas.put(mode, row: 0, column: column, style: modeStyle)
        column = canvas.put("  depth: \(loop.nestingDepth)", row: 0, column: column, style: Style(.title, reverse: true))
        let common = loop.commonModes.map(\.rawValue).joined(separator: ", ")
        column = canvas.put("  common: [\(common)]", row: 0, column: column, style: Style(.title, reverse: true))
        switch dashboard.gesture {
        case .none: break
        case .scrolling: canvas.put("  ⇅ scrolling", row: 0, column: column, style: Style(.warn, bold: true, reverse: true))
        case .held: canvas.put("  ⇅ held (t)", row: 0, column: column, style: Style(.warn, bold: true, reverse: true))
        }
    }
}
