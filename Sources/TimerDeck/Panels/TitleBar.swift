import TerminalUI

/// The top line: the run loop's current mode and nesting depth, the common-modes set, the gesture,
/// and the clock when it is paused or slowed down.
///
/// On a narrow screen the state indicators (mode, depth, gesture, pause, rate) are never cut: the
/// program's name goes first, then the common-modes list is shortened, then left out.
enum TitleBar {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        let loop = snapshot.loop
        let plain = Style(.title, reverse: true)
        let warn = Style(.warn, bold: true, reverse: true)
        canvas.fill(plain)
        let modeStyle = loop.mode == .tracking ? warn : Style(.title, bold: true, reverse: true)
        let state: [(String, Style)] =
            [
                (" mode: ", plain), (loop.mode?.rawValue ?? "not running", modeStyle),
                ("  depth: \(loop.depth)", plain),
            ]
        var indicators: [(String, Style)] = []
        switch snapshot.state.gesture {
        case .none: break
        case .scrolling: indicators.append(("  ⇅ scrolling", warn))
        case .held: indicators.append(("  ⇅ held (t)", warn))
        case .dragging: indicators.append(("  ⇅ dragging", warn))
        }
        let clock = snapshot.state.time ?? TimeStatus()
        let time = [clock.isPaused ? "⏸ paused" : nil, clock.rate != .normal ? clock.rate.label : nil].compactMap { $0 }
        if !time.isEmpty { indicators.append(("  " + time.joined(separator: " "), warn)) }

        let name = " TimerDeck "
        let width = { (parts: [(String, Style)]) in parts.reduce(0) { $0 + CharacterWidth.of($1.0) } }
        let needed = width(state) + width(indicators)
        let modes = loop.commonModes.map(\.rawValue)
        let whole = commonModes(modes, room: .max) ?? ""
        let keepsName = needed + CharacterWidth.of(whole) + CharacterWidth.of(name) <= canvas.width
        let common = commonModes(modes, room: canvas.width - needed - (keepsName ? CharacterWidth.of(name) : 0))
        var column = 0
        if keepsName { column = canvas.put(name, row: 0, column: 0, style: Style(.title, bold: true, reverse: true)) }
        for (text, style) in state + (common.map { [($0, plain)] } ?? []) + indicators {
            column = canvas.put(text, row: 0, column: column, style: style)
        }
    }

    /// `  common: [default, tracking]` in `room` cells, or as many whole modes as fit and how many
    /// more (`[default +2]`); `nil` when not even the count fits.
    static func commonModes(_ modes: [String], room: Int) -> String? {
        for shown in stride(from: modes.count, through: 0, by: -1) {
            let list = modes.prefix(shown).joined(separator: ", ")
            let more = shown == modes.count ? "" : (shown == 0 ? "+" : " +") + "\(modes.count - shown)"
            let text = "  common: [\(list)\(more)]"
            if CharacterWidth.of(text) <= room { return text }
        }
        return nil
    }
}
