import TerminalUI

/// The keymap: the keys that are not characters, and ``lines``, the one table of what every key
/// does, from which the help overlay is written with the keys the config bound, and `--help`, the
/// manual page and `Docs/Manual.md` with the default keys (``KeyGuide``). A character key means the
/// ``KeyAction`` that has it (``KeyBindings``).
enum Keymap {
    /// Lines one wheel notch scrolls.
    static let wheelLines = 3

    /// A line of the keymap: keys, what they do in a few words (the overlay, `--help`), and in
    /// full (the manual).
    struct Line: Sendable {
        /// A key of a line: an action the config may move (shown with the key it has), or a key
        /// written as it is.
        enum Keys: Sendable {
            case action(KeyAction)
            case fixed(String)
        }

        let keys: [Keys]
        let text: String
        let detail: String

        init(_ keys: [Keys], _ text: String, detail: String? = nil) {
            self.keys = keys
            self.text = text
            self.detail = detail ?? text
        }

        /// The `[keys]` actions among the keys, which a config may move.
        var actions: [KeyAction] {
            keys.compactMap { key in
                if case .action(let action) = key { return action }
                return nil
            }
        }

        /// The line in the help with the keys `bindings` gives.
        func written(with bindings: KeyBindings) -> String {
            let column = names(with: bindings).joined(separator: " ")
            return column + String(repeating: " ", count: max(Keymap.keyColumn - CharacterWidth.of(column), 1)) + text
        }

        /// The line as the plain mode says it: the keys, arrows in words, then what they do in full
        /// (`up / down: select a row …`).
        func spoken(with bindings: KeyBindings) -> String {
            let arrows: [Character: String] = ["↑": "up", "↓": "down", "←": "left", "→": "right"]
            let column = names(with: bindings).joined(separator: " ")
            return column.map { arrows[$0] ?? String($0) }.joined() + ": " + detail
        }

        private func names(with bindings: KeyBindings) -> [String] {
            keys.map { key in
                switch key {
                case .action(let action): KeyAction.name(of: bindings.key(of: action))
                case .fixed(let text): text
                }
            }
        }
    }

    /// Width of the help's key column.
    static let keyColumn = 18

    /// Every key, in the help's order.
    static let lines: [Line] = [
        Line(
            [.fixed("Tab / Shift-Tab")], "focus the next / previous panel",
            detail: "focus the next / previous panel on screen: SMS (focused at start), ripple, timers, fire log, "
                + "uploads (when shown)"),
        Line(
            [.fixed("↑ / ↓")], "select a row (scroll in the fire log)",
            detail: "select a row; in the fire log, scroll it (a tracking gesture)"),
        Line(
            [.fixed("Enter")], "press the selected SMS button",
            detail:
                "press the selected SMS button (ignored while it counts; in overtime it ends the count; after `x` it "
                + "shows `Send` again)"),
        Line([.action(.startStop)], "start / stop the selected timer"),
        Line([.action(.pause)], "suspend / resume it"),
        Line(
            [.action(.mode)], "next mode: default → tracking → modal → common",
            detail: "move it to the next mode: default → tracking → modal → common → default (a dispatch timer has "
                + "no run loop mode: the status bar says so)"),
        Line(
            [.action(.fire)], "fire it now (sampler, uploader: sample, upload now)",
            detail: "fire it now (on the uploads panel: take a sample / upload now, during a retry's wait too; on "
                + "the ripple: draw its next frame; a display link of your own has no fire by hand: the status "
                + "bar says so)"),
        Line([.action(.invalidate)], "invalidate it", detail: "invalidate it (an SMS button goes back to `Send`)"),
        Line(
            [.action(.track)], "hold the tracking mode until pressed again",
            detail: "hold the run loop in the tracking mode until pressed again; during a scroll or a drag, hold "
                + "that one (a click or a release does not end it)"),
        Line(
            [.fixed("PgUp PgDn"), .action(.scrollDown), .action(.scrollUp)], "scroll the fire log (runs tracking, M2)",
            detail: "scroll the fire log: a tracking gesture, which runs the loop in the tracking mode until it "
                + "ends (250 ms without scroll input, `[gesture] quiet`)"),
        Line(
            [.fixed("wheel, drag")], "scroll / hold tracking with the mouse",
            detail: "the mouse wheel scrolls the fire log; a drag holds the tracking mode until the button is "
                + "released (a release ends only the drag's own run, not one `t` holds or a scroll)"),
        Line(
            [.fixed("Home / End")], "oldest / newest log entry",
            detail: "oldest page / newest log entry (fire log focused)"),
        Line([.action(.frameUp), .action(.frameDown)], "ticker frame interval up / down"),
        Line(
            [.action(.slowLoad)], "slow-callback load on the ticker (D3)",
            detail: "add a 40 ms load to each of the ripple's callbacks, so it skips frames (D3)"),
        Line(
            [.action(.panels), .action(.lab), .action(.phases), .action(.timeline)],
            "panels / lifetime lab / run loop phases / timeline",
            detail: "the dashboard / the lifetime lab / the run loop's phases / the timeline of the last minute"),
        Line(
            [.fixed("lab: ↑ ↓ o c i")], "strategy, open / close a screen, free leaked timers",
            detail: "in the lifetime lab: choose a strategy, open a screen with it, close the newest, invalidate "
                + "its leaked timers"),
        Line(
            [.action(.modal)], "run the loop in mode \"modal\" until pressed again",
            detail: "run the loop in the custom mode `modal` (a nested run, as a modal panel's) until pressed "
                + "again, which ends a tracking run held inside it too"),
        Line(
            [.action(.modalCommon)], "make \"modal\" a common mode (for good, C-M5)",
            detail: "make `modal` a common mode, for good (as in CF, a common mode cannot be taken out)"),
        Line(
            [.action(.pauseAll), .action(.step)], "pause / resume all timers; step to the next fire",
            detail: "pause the world (nothing fires, the loop sleeps without a deadline) / resume it; step pauses, "
                + "jumps to the next fire date of the running mode, and that fire happens"),
        Line(
            [.action(.slower), .action(.faster)], "slow motion: slower / faster (1×, ¼×, ⅒×)",
            detail: "slow motion: 1×, ¼×, ⅒× (timers, the display link and the countdowns run that much slower; "
                + "lateness is still shown in real terms)"),
        Line(
            [.action(.sleep), .action(.wallBack), .action(.wallForward)],
            "simulate a machine sleep (G3); wall clock −1 h / +1 h",
            detail: "simulate a machine sleep of `[time] sleep` (the continuous and wall clocks move on, uptime "
                + "stands still); the wall clock alone jumps back / forward an hour"),
        Line(
            [.action(.add)], "add a timer (a form below; ? there shows this help)",
            detail: "add a timer (type `\(TimerDefinition.lineSyntax)` in the status bar, e.g. `tea 3m dispatch once`, "
                + "or `tea 3m overtime` for a 3-minute countdown that counts on past its end; Enter starts it, Esc "
                + "cancels, `?` shows this help)"),
        Line(
            [.action(.delete), .action(.undo)], "delete the selected timer; undo the last delete",
            detail: "delete the selected timer (not the two upload jobs); undo puts the last deleted one back where "
                + "it was, selected, as if it had not gone: a countdown with the time left to its end, a stopwatch "
                + "with its time and laps, an alarm at its instant, held if it was held"),
        Line(
            [.action(.write)], "write every timer to a file",
            detail: "write every row's timer as `[[timers]]` tables to a file you name, which loads back with "
                + "`--config` (an existing file is overwritten only when you say so)"),
        Line(
            [.action(.lap), .action(.laps), .action(.exportLaps)], "stopwatch: lap; show its laps; write them (CSV)",
            detail: "on the selected stopwatch: take a lap; show its laps over the panels with split and lap time, "
                + "the fastest and the slowest marked (`v` or `Esc` hides them); write them as CSV to a file you "
                + "name (an existing file is overwritten only when you say so)"),
        Line(
            [.action(.bigDigits)], "the selected timer in big digits",
            detail: "the selected timer in digits as large as the terminal fits, with its name, mode and state "
                + "(`paused: tracking` while the loop runs a mode it is not in); ↑ ↓ choose another, `1` returns"),
        Line(
            [.action(.report)], "tell every timer's state on one line",
            detail: "tell every timer's state, mode, next fire and button on one line: printed in the plain mode "
                + "(`--plain`), shown in the status bar on the screen"),
        Line(
            [.action(.help), .fixed("Esc")], "this help; close it",
            detail: "the help overlay (`?` or `Esc` closes it; while it is open other keys do nothing)"),
        Line([.action(.quit)], "quit"),
    ]

    /// The help overlay's keymap, with the keys `bindings` gives.
    static func help(_ bindings: KeyBindings) -> [String] { lines.map { $0.written(with: bindings) } }

    /// The key list as the plain mode says it, a line each (``Line/spoken(with:)``).
    static func spokenHelp(_ bindings: KeyBindings) -> [String] { lines.map { $0.spoken(with: bindings) } }

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
