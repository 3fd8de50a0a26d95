import KeptTimers
import RunLoopKit
import TerminalUI

/// The focus view (`5`): the selected timer in large digits that fit the terminal, at any size —
/// the large font scaled up as far as it fits, else the small one, else the time as text — with
/// its name, mode and state above and below. The time is what the timer's next event is: an SMS
/// button's remaining count (past its end in overtime, `+01:23`), a stopwatch's time run, or the
/// time to the next fire (an alarm's time left); `--:--` when nothing is due.
///
/// Every cell of the screen is written each time, blanks included, and never blanked first: a
/// redraw changes only the cells whose character or style changed, so the digits do not flicker.
enum BigDigitsPanel {
    /// The line under the digits that says how to leave.
    static let leave = "1 returns to the dashboard, ↑ ↓ choose the timer"

    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        let state = snapshot.state
        var lines = Array(repeating: (text: "", style: Style.normal), count: canvas.height)
        guard let row = state.focusedRow else {
            if !lines.isEmpty { lines[0] = ("no timer to show: a adds one", Style(.warn)) }
            put(lines, on: canvas)
            return
        }
        let display = snapshot.displayState(of: row)
        let time = timeText(row, of: snapshot)
        let about = [row.name, PanelText.mode(row.mode) + (row.mode == nil ? "" : " mode"), row.mechanismText]
        let status = statusText(display, snapshot: snapshot)
        let style = digitStyle(display)
        switch canvas.height {
        case 0: break
        case 1, 2:
            lines[0] = ("\(row.name) \(time) \(status)", style)
            if canvas.height == 2 { lines[1] = (about.dropFirst().joined(separator: " · "), Style(.dim)) }
        default:
            lines[0] = (about.joined(separator: " · "), Style(.title))
            let digits = digitLines(time, width: canvas.width, height: canvas.height - 4)
            let top = 2 + max((canvas.height - 4 - digits.count) / 2, 0)
            for (index, line) in digits.enumerated() where top + index < canvas.height - 1 {
                lines[top + index] = (line, style)
            }
            // The state under the digits where there is a line for it, else beside the way out.
            let below = top + digits.count + 1
            if below < canvas.height - 1 {
                lines[below] = (status, statusStyle(display))
                lines[canvas.height - 1] = (leave, Style(.dim))
            } else {
                lines[canvas.height - 1] = ("\(status) · \(leave)", Style(.dim))
            }
        }
        put(lines, on: canvas)
    }

    /// `time` in the largest font that fits `width × height`: the large one scaled, the small one,
    /// or as text.
    static func digitLines(_ time: String, width: Int, height: Int) -> [String] {
        let large = BigDigitFont.large
        // The largest whole scale whose glyphs fit (the gaps between them stay one column).
        let gaps = max(time.count - 1, 0)
        let scale = min((width - gaps) / max(large.width(of: time) - gaps, 1), height / large.height)
        if scale >= 1 { return large.lines(of: time, scale: scale) }
        let small = BigDigitFont.small
        if small.width(of: time) <= width && small.height <= height { return small.lines(of: time) }
        return [time]
    }

    /// The time the digits show: `MM:SS`, or `H:MM:SS` from an hour on; a countdown in overtime
    /// the time past its end, `+01:23`; a stopwatch the time it has run; an alarm the time left.
    static func timeText(_ row: RowState, of snapshot: DashboardSnapshot) -> String {
        switch row.button?.state {
        case .counting(let remaining): return ClockText.countdown(seconds: remaining)
        case .overtime(let seconds): return "+" + ClockText.countdown(seconds: seconds)
        case .idle, nil: break
        }
        if let watch = row.stopwatch {
            return ClockText.countdown(seconds: Int(watch.elapsed(at: snapshot.loop.now).nanoseconds / 1_000_000_000))
        }
        let display = snapshot.displayState(of: row)
        guard display == .running || display == .waitingForMode,
            let next = snapshot.reading(of: row).nextFire, next != .distantFuture
        else { return "--:--" }
        let left = max(snapshot.loop.now.duration(to: next).nanoseconds, 0)
        return ClockText.countdown(seconds: Int((left + 999_999_999) / 1_000_000_000))
    }

    /// What the timer is doing, in words: `paused: tracking` while the loop runs a mode it is not in.
    static func statusText(_ display: DisplayState, snapshot: DashboardSnapshot) -> String {
        switch display {
        case .waitingForMode: "paused: \(snapshot.loop.mode?.rawValue ?? "no run")"
        case .suspended: "suspended (p resumes)"
        case .running, .idle, .invalid: display.description
        }
    }

    private static func digitStyle(_ display: DisplayState) -> Style {
        switch display {
        case .running: Style(.accent, bold: true)
        case .waitingForMode, .suspended: Style(.warn, bold: true)
        case .idle, .invalid: Style(.dim)
        }
    }

    private static func statusStyle(_ display: DisplayState) -> Style {
        display == .waitingForMode ? Style(.warn, bold: true, reverse: true) : PanelText.style(for: display)
    }

    /// Writes each line centred and padded to the canvas's width: every cell, none blanked first.
    private static func put(_ lines: [(text: String, style: Style)], on canvas: Canvas) {
        for (index, line) in lines.enumerated() {
            let text = TextFit.truncate(line.text, to: canvas.width)
            let left = max((canvas.width - CharacterWidth.of(text)) / 2, 0)
            let end = canvas.put(String(repeating: " ", count: left), row: index, column: 0)
            let after = canvas.put(text, row: index, column: end, style: line.style)
            canvas.clear(row: index, from: after)
        }
    }
}
