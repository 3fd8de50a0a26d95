import KeptTimers
import RunLoopKit
import TerminalUI

/// The SMS resend buttons (S1), each with the mechanism behind it, and beside them the stopwatches
/// and the alarms, whose deadlines are on the wall clock where the buttons count on uptime.
enum CountdownPanel {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        canvas.fill()
        let state = snapshot.state
        var title = state.alarmRows.isEmpty ? "SMS resend (S1)" : "SMS resend (S1) · alarms"
        let (first, count, room) = (
            state.countdownsShownFrom, state.countdownPanelRows.count, state.layout.countdownRows
        )
        if count > room { title += " · \(first + 1)–\(min(first + room, count)) of \(count)" }
        canvas.box(title: title, style: Style(focused ? .accent : .dim))
        drawRows(nil, of: snapshot, on: canvas, focused: focused)
    }

    /// Redraws the lines of the rows `ids` (all of them for `nil`), leaving the rest of the panel alone.
    static func drawRows(_ ids: Set<RowID>?, of snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let state = snapshot.state
        // Wide enough for every countdown's longest label, whichever rows are redrawn, so the
        // buttons line up and `Resend (180)` is never cut.
        let buttonWidth = state.countdownPanelRows.reduce(11) { max($0, $1.button?.widestCountingLabel ?? 0) }
        let first = state.countdownsShownFrom
        for (index, row) in state.countdownPanelRows.enumerated().dropFirst(first)
        where index - first < inner.height && ids?.contains(row.id) != false {
            let line = index - first
            inner.clear(row: line)
            let selected = focused && state.selected(.countdowns) == index
            inner.put(selected ? "▶" : " ", row: line, column: 0, style: Style(.accent, bold: true))
            let display = snapshot.displayState(of: row)
            let label: String
            let isLit: Bool
            let text: String
            var state = display.shortText
            if let button = row.button {
                label = button.label
                isLit = button.isEnabled
                // The standard scene's three buttons are told apart by their mechanism; any other row by its name too.
                let isStandard = TimerDefinition.standardScene.contains {
                    $0.name == row.name && $0.drives == .countdown
                }
                // Beside alarms, each says its clock: the countdowns' seconds are not the wall clock's.
                let clock = snapshot.state.alarmRows.isEmpty ? "" : ", \(row.definition.clock) clock"
                let about =
                    (isStandard ? "" : "\(row.name) · ") + "\(row.kindText) in \(PanelText.mode(row.mode))" + clock
                text = about + (isStandard ? "" : endsText(row, button, of: snapshot).map { " · " + $0 } ?? "")
            } else if let watch = row.stopwatch {
                label = ClockText.stopwatch(watch.elapsed(at: snapshot.loop.now))
                isLit = watch.isRunning
                let laps = watch.splits.count
                text = "\(row.name) · stopwatch, \(laps) lap\(laps == 1 ? "" : "s")"
            } else {
                // An alarm: its local time, and the time left on the wall clock while it is set.
                label = alarmLabel(row.alarmTime)
                isLit = display == .running
                text = "\(row.name) · alarm on the wall clock"
                if display == .running {
                    state = PanelText.relativeForms(snapshot.reading(of: row).nextFire, now: snapshot.loop.now).first
                }
            }
            let buttonStyle = isLit ? Style(.good, bold: true, reverse: selected) : Style(.disabled, reverse: selected)
            var column = inner.put(
                "[ \(PanelText.fit(label, buttonWidth)) ]", row: line, column: 2, style: buttonStyle)
            let room = inner.width - column - 1 - (state.map { $0.count + 1 } ?? 0)
            column = inner.put(
                " " + TextFit.truncate(text, to: max(room, 0)), row: line, column: column, style: Style(.dim))
            if let state {
                inner.put(" \(state)", row: line, column: column, style: PanelText.style(for: display))
            }
        }
    }

    /// When a running countdown ends on the local clock, `ends 14:32:05`: read from the wall clock
    /// at each draw, so it is right after a pause, a change of the clock or of the time zone;
    /// `nil` while it does not run (held, idle, waiting for its mode) or past its end.
    static func endsText(_ row: RowState, _ button: Countdown, of snapshot: DashboardSnapshot) -> String? {
        guard case .counting(let left) = button.state, snapshot.displayState(of: row) == .running,
            let wallNow = snapshot.loop.wallNow, let next = snapshot.reading(of: row).nextFire, next != .distantFuture
        else { return nil }
        // Its next fire takes the count to left - 1; the last to zero.
        let toEnd: Duration = snapshot.loop.now.duration(to: next) + .seconds(left - 1)
        guard let local = LocalDateTime(localTimeOf: wallNow + toEnd) else { return nil }
        return "ends \(local.time.clockText)"
    }

    /// An alarm's time in 11 cells: `12:30`, `12:30:15`, or for a date `12-24 18:00`.
    private static func alarmLabel(_ time: TimerDefinition.FirstFire) -> String {
        guard case .on(let date) = time else { return time.text }
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(date.month))-\(twoDigits(date.day)) \(date.time.text)"
    }
}
