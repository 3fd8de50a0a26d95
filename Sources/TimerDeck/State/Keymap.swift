import TerminalUI

/// The default keymap; ``KeyGuide`` says what each key does (the help overlay, `--help` and the manual).
enum Keymap {
    /// Lines one wheel notch scrolls.
    static let wheelLines = 3

    /// The command for `key` with `focus` on that panel; `nil` for keys that mean nothing here.
    static func command(for key: Key, focus: Panel, logPage: Int) -> Command? {
        switch key {
        case .tab: return .focusNext
        case .shiftTab: return .focusPrevious
        case .up: return focus == .log ? .scroll(lines: -1) : .selectPrevious
        case .down: return focus == .log ? .scroll(lines: 1) : .selectNext
        case .character("k"): return .scroll(lines: -1)
        case .character("j"): return .scroll(lines: 1)
        case .pageUp: return .scroll(lines: -max(logPage, 1))
        case .pageDown: return .scroll(lines: max(logPage, 1))
        case .home: return focus == .log ? .scrollToOldest : nil
        case .end: return focus == .log ? .scrollToNewest : nil
        case .enter: return .press
        case .character("s"): return .startOrStop
        case .character("p"): return .suspendOrResume
        case .character("m"): return .moveMode
        case .character("f"): return .fireNow
        case .character("x"): return .invalidate
        case .character("t"): return .toggleTrackingHold
        case .character("+"), .character("="): return .frameIntervalUp
        case .character("-"): return .frameIntervalDown
        case .character("l"): return .toggleSlowLoad
        case .character("?"): return .toggleHelp
        case .escape: return .dismiss
        case .character("q"): return .quit
        case .character("2"): return .show(.lab)
        case .character("3"): return .show(.phases)
        case .character("4"): return .show(.timeline)
        case .character("M"): return .toggleModal
        case .character("C"): return .makeModalCommon
        case .character("W"): return .writeTimers
        case .character("a"): return .addTimer
        case .character("d"): return .deleteTimer
        case .character("1"): return .show(.panels)
        case .character(" "): return .time(.togglePause)
        case .character("."): return .time(.step)
        case .character("<"): return .time(.slower)
        case .character(">"): return .time(.faster)
        case .character("z"): return .time(.sleep)
        case .character("w"): return .time(.jumpWall(hours: -1))
        case .character("e"): return .time(.jumpWall(hours: 1))
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

    /// The help overlay's key lines, from ``KeyGuide``.
    static let help: [String] = KeyGuide.entries.map(\.overlayLine)
}
