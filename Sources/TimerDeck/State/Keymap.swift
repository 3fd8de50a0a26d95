import TerminalUI

/// The keymap: the keys that are not characters, and ``lines``, the one table of what every key
/// does, from which the help overlay (and the README's key list) is written with the keys the
/// config bound. A character key means the ``KeyAction`` that has it (``KeyBindings``).
enum Keymap {
    /// Lines one wheel notch scrolls.
    static let wheelLines = 3

    /// A line of the keymap: keys and what they do.
    struct Line: Sendable {
        /// A key of a line: an action the config may move (shown with the key it has), or a key
        /// written as it is.
        enum Keys: Sendable {
            case action(KeyAction)
            case fixed(String)
        }

        let keys: [Keys]
        let text: String

        init(_ keys: [Keys], _ text: String) {
            self.keys = keys
            self.text = text
        }

        /// The line in the help with the keys `bindings` gives.
        func written(with bindings: KeyBindings) -> String {
            let names = keys.map { key in
                switch key {
                case .action(let action): KeyAction.name(of: bindings.key(of: action))
                case .fixed(let text): text
                }
            }
            let column = names.joined(separator: " ")
            return column + String(repeating: " ", count: max(Keymap.keyColumn - CharacterWidth.of(column), 1)) + text
        }
    }

    /// Width of the help's key column.
    static let keyColumn = 18

    /// Every key, in the help's order.
    static let lines: [Line] = [
        Line([.fixed("Tab / Shift-Tab")], "focus the next / previous panel"),
        Line([.fixed("↑ / ↓")], "select a row (scroll in the fire log)"),
        Line([.fixed("Enter")], "press the selected SMS button"),
        Line([.action(.startStop)], "start / stop the selected timer"),
        Line([.action(.pause)], "suspend / resume it"),
        Line([.action(.mode)], "next mode: default → tracking → modal → common"),
        Line([.action(.fire)], "fire it now (sampler, uploader: sample, upload now)"),
        Line([.action(.invalidate)], "invalidate it"),
        Line([.action(.track)], "hold the loop in the tracking mode until pressed again"),
        Line(
            [.fixed("PgUp PgDn"), .action(.scrollDown), .action(.scrollUp)], "scroll the fire log (runs tracking, M2)"),
        Line([.fixed("wheel, drag")], "scroll / hold tracking with the mouse"),
        Line([.fixed("Home / End")], "oldest / newest log entry"),
        Line([.action(.frameUp), .action(.frameDown)], "ticker frame interval up / down"),
        Line([.action(.slowLoad)], "slow-callback load on the ticker (D3)"),
        Line(
            [.action(.panels), .action(.lab), .action(.phases), .action(.timeline)],
            "panels / lifetime lab / run loop phases / timeline"),
        Line([.fixed("lab: ↑ ↓ o c i")], "strategy, open / close a screen, free leaked timers"),
        Line([.action(.modal)], "run the loop in mode \"modal\" until pressed again"),
        Line([.action(.modalCommon)], "make \"modal\" a common mode (for good, C-M5)"),
        Line([.action(.pauseAll), .action(.step)], "pause / resume all timers; step to the next fire"),
        Line([.action(.slower), .action(.faster)], "slow motion: slower / faster (1×, ¼×, ⅒×)"),
        Line(
            [.action(.sleep), .action(.wallBack), .action(.wallForward)],
            "simulate a machine sleep (G3); wall clock −1 h / +1 h"),
        Line([.action(.add)], "add a timer (a form below; ? there shows this help)"),
        Line([.action(.delete), .action(.undo)], "delete the selected timer; undo the last delete"),
        Line([.action(.write)], "write every timer to a file"),
        Line([.action(.help), .fixed("Esc")], "this help; close it"),
        Line([.action(.quit)], "quit"),
    ]

    /// The help overlay's keymap, with the keys `bindings` gives.
    static func help(_ bindings: KeyBindings) -> [String] { lines.map { $0.written(with: bindings) } }

    /// The command for `key` with `focus` on that panel and `bindings` over the default keys; `nil`
    /// for keys that mean nothing here.
    static func command(for key: Key, focus: Panel, logPage: Int, bindings: KeyBindings) -> Command? {
        switch key {
        case .character(let character): return bindings.action(for: character)?.command
        case .tab: return .focusNext
        case .shiftTab: return .focusPrevious
        case .up: return focus == .log ? .scroll(lines: -1) : .selectPrevious
        case .down: return focus == .log ? .scroll(lines: 1) : .selectNext
        case .pageUp: return .scroll(lines: -max(logPage, 1))
        case .pageDown: return .scroll(lines: max(logPage, 1))
        case .home: return focus == .log ? .scrollToOldest : nil
        case .end: return focus == .log ? .scrollToNewest : nil
        case .enter: return .press
        case .escape: return .dismiss
        case .mouse(let event):
            switch event.kind {
            case .wheelUp: return .scroll(lines: -wheelLines)
            case .wheelDown: return .scroll(lines: wheelLines)
            case .press: return .dragBegan
            case .release: return .dragEnded
            case .other: return nil
            }
        default: return nil
        }
    }

    /// The lab's own keys (`2`), which come before the others there.
    static func labCommand(for key: Key) -> Command? {
        switch key {
        case .up: .selectStrategy(by: -1)
        case .down: .selectStrategy(by: 1)
        case .character("o"): .openScreen
        case .character("c"): .closeScreen
        case .character("i"): .stopLeftBehind
        default: nil
        }
    }

    /// The key hints of the status bar on `page`, with the keys the config moved.
    static func hints(on page: Page, keys: KeyBindings) -> String {
        let key = { (action: KeyAction) in KeyAction.name(of: keys.key(of: action)) }
        let hints: [(String, String)] =
            page == .panels
            ? [
                ("⏎", "press"), (key(.startStop), "start/stop"), (key(.pause), "pause"), (key(.mode), "mode"),
                (key(.fire), "fire"), (key(.invalidate), "invalidate"), (key(.help), "keys"), (key(.quit), "quit"),
            ]
            : [
                (key(.panels), "back"), (key(.lab), "lab"), (key(.phases), "phases"), (key(.timeline), "timeline"),
                (key(.modal), "modal"), (key(.modalCommon), "modal → common"), (key(.help), "keys"),
                (key(.quit), "quit"),
            ]
        return hints.map { "\($0) \($1)" }.joined(separator: "  ")
    }
}
