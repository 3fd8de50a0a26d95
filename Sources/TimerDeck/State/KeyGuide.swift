/// The keys as the documentation tells them: one table, which the help overlay (`?`),
/// `timerdeck --help` (and so the manual page) and the key table of `Docs/Manual.md` are all
/// made from. ``Keymap`` maps the keys to commands; this says what they do.
///
/// ```swift
/// KeyGuide.entries.map(\.overlayLine)     // the help overlay's key lines
/// KeyGuide.markdownTable                  // the key table of Docs/Manual.md
/// ```
enum KeyGuide {
    /// One line of the overlay: keys, what they do in a few words, and in full.
    struct Entry: Sendable {
        /// The keys, as the overlay writes them (`Tab / Shift-Tab`, `space  .`).
        var keys: String
        /// The `[keys]` actions among them, which a config may move to other keys.
        var actions: [KeyAction]
        /// What they do, short enough for the overlay at 80×24.
        var summary: String
        /// What they do, in full, for the manual.
        var detail: String

        /// The overlay's line: the keys in a column of ``keyColumn`` cells, then the summary.
        var overlayLine: String {
            keys + String(repeating: " ", count: max(KeyGuide.keyColumn - keys.count, 1)) + summary
        }
    }

    /// The width of the keys' column in the overlay and in `--help`.
    static let keyColumn = 18

    /// Every key, in the overlay's order.
    static let entries: [Entry] = [
        Entry(
            keys: "Tab / Shift-Tab", actions: [], summary: "focus the next / previous panel",
            detail: "focus the next / previous panel on screen: SMS (focused at start), ripple, timers, fire log, "
                + "uploads (when shown)"),
        Entry(
            keys: "↑ / ↓", actions: [], summary: "select a row (scroll in the fire log)",
            detail: "select a row; in the fire log, scroll it (a tracking gesture)"),
        Entry(
            keys: "Enter", actions: [], summary: "press the selected SMS button",
            detail: "press the selected SMS button (ignored while it counts; after `x` it shows `Send` again)"),
        Entry(
            keys: "s", actions: [.startStop], summary: "start / stop the selected timer",
            detail: "start / stop the selected timer"),
        Entry(keys: "p", actions: [.pause], summary: "suspend / resume it", detail: "suspend / resume it"),
        Entry(
            keys: "m", actions: [.mode], summary: "next mode: default → tracking → modal → common",
            detail: "move it to the next mode: default → tracking → modal → common → default (a dispatch timer has "
                + "no run loop mode: the status bar says so)"),
        Entry(
            keys: "f", actions: [.fire], summary: "fire it now (sampler, uploader: sample, upload now)",
            detail: "fire it now (on the uploads panel: take a sample / upload now; on the ripple: draw its next "
                + "frame; a display link of your own has no fire by hand: the status bar says so)"),
        Entry(
            keys: "x", actions: [.invalidate], summary: "invalidate it",
            detail: "invalidate it (an SMS button goes back to `Send`)"),
        Entry(
            keys: "t", actions: [.track], summary: "hold the run loop in the tracking mode until t again",
            detail: "hold the run loop in the tracking mode until `t` again; during a scroll or a drag, hold that "
                + "one (a click or a release does not end it)"),
        Entry(
            keys: "PgUp PgDn j k", actions: [.scrollUp, .scrollDown],
            summary: "scroll the fire log (runs the tracking mode, M2)",
            detail: "scroll the fire log: a tracking gesture, which runs the loop in the tracking mode until it "
                + "ends (250 ms without scroll input, `[gesture] quiet`)"),
        Entry(
            keys: "wheel, drag", actions: [], summary: "scroll / hold tracking with the mouse",
            detail: "the mouse wheel scrolls the fire log; a drag holds the tracking mode until the button is "
                + "released (a release ends only the drag's own run, not one `t` holds or a scroll)"),
        Entry(
            keys: "Home / End", actions: [], summary: "oldest / newest log entry",
            detail: "oldest page / newest log entry (fire log focused)"),
        Entry(
            keys: "+ / -", actions: [.frameUp, .frameDown, .slowLoad],
            summary: "ticker frame interval     l  slow-callback load (D3)",
            detail: "the ripple's frame interval up / down; `l` adds a 40 ms load to each of its callbacks, so it "
                + "skips frames"),
        Entry(
            keys: "1 2 3 4", actions: [.panels, .lab, .phases, .timeline],
            summary: "panels / lifetime lab / run loop phases / timeline",
            detail: "the dashboard / the lifetime lab / the run loop's phases / the timeline of the last minute"),
        Entry(
            keys: "lab: ↑ ↓ o c i", actions: [], summary: "strategy, open / close a screen, free leaked timers",
            detail: "in the lifetime lab: choose a strategy, open a screen with it, close the newest, invalidate "
                + "its leaked timers"),
        Entry(
            keys: "M", actions: [.modal], summary: "run the loop in the custom mode \"modal\" until M again",
            detail: "run the loop in the custom mode `modal` (a nested run, as a modal panel's) until `M` again, "
                + "which ends a tracking run held inside it too"),
        Entry(
            keys: "C", actions: [.modalCommon], summary: "make \"modal\" a common mode (for good, C-M5)",
            detail: "make `modal` a common mode, for good (as in CF, a common mode cannot be taken out)"),
        Entry(
            keys: "space  .", actions: [.pauseAll, .step], summary: "pause / resume all timers; step to the next fire",
            detail: "pause the world (nothing fires, the loop sleeps without a deadline) / resume it; `.` pauses, "
                + "jumps to the next fire date of the running mode, and that fire happens"),
        Entry(
            keys: "<  >", actions: [.slower, .faster], summary: "slow motion: slower / faster (1×, ¼×, ⅒×)",
            detail: "slow motion: 1×, ¼×, ⅒× (timers, the display link and the countdowns run that much slower; "
                + "lateness is still shown in real terms)"),
        Entry(
            keys: "z  w  e", actions: [.sleep, .wallBack, .wallForward],
            summary: "simulate a machine sleep (G3); wall clock −1 h / +1 h",
            detail: "simulate a machine sleep of `[time] sleep` (the continuous and wall clocks move on, uptime "
                + "stands still); the wall clock alone jumps back / forward an hour"),
        Entry(
            keys: "a  d  W", actions: [.add, .delete, .write],
            summary: "add a timer (a form below), delete one, write all",
            detail: "add a timer (type `NAME INTERVAL [runloop|dispatch|task] [once] [default|tracking|common]` in "
                + "the status bar, e.g. `tea 3m dispatch once`; Enter starts it, Esc cancels); delete the selected "
                + "timer (not the two upload jobs); write every row's timer as `[[timers]]` tables to a file you "
                + "name, which loads back with `--config`"),
        Entry(
            keys: "?", actions: [.help, .quit], summary: "this help    Esc  close    q  quit",
            detail: "the help overlay (`?` or `Esc` closes it; while it is open other keys do nothing); `q` quits"),
    ]

    /// The key table of `Docs/Manual.md`: keys, what they do, and the `[keys]` actions among them.
    static var markdownTable: String {
        let rows = entries.map { entry in
            let actions = entry.actions.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            let detail = entry.detail.replacing("|", with: "\\|")
            return "| `\(entry.keys)` | \(detail) | \(actions) |"
        }
        return (["| keys | do | `[keys]` action |", "|---|---|---|"] + rows).joined(separator: "\n")
    }

    /// The `[keys]` actions with their default keys: `start-stop (s), pause (p), …`.
    static var actionList: String {
        KeyAction.allCases.map { "\($0.rawValue) (\(KeyAction.name(of: $0.defaultKey)))" }
            .joined(separator: ", ")
    }
}
