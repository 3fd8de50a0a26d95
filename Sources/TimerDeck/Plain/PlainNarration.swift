import KeptTimers
import RunLoopKit
import TerminalUI

/// What the plain mode (`--plain`) writes: one line per thing that happened, for a screen reader
/// or a terminal without cursor movement. The lines come from the state machine — the fire log's
/// new entries and what an applied event changed in the rows, the nested runs and the status
/// message — never from the screen, so every row kind, whatever it draws, is told the same way.
///
/// A timer's changes are always told. Its fires are not all: the first after a change and any in
/// another mode than the last one told are, then one ``fireSpacing`` later with how many there
/// were, and while nothing changes each such line waits twice as long as the one before, up to
/// ``steadySpacing``: a steady timer is told less and less, not every 10 s for ever. A countdown's fires are told by what is left at marks instead (`tea: 1 minute left`,
/// `30 seconds left`, `10 seconds left`): at most six lines a minute for any timer.
///
/// ```swift
/// var narration = PlainNarration(state, commonModes: loop.commonModes)
/// let lines = narration.lines(after: event, state: state, firstNewEntry: logged, commonModes: loop.commonModes)
/// // ["sms-default started in default mode", "tracking: default-mode timers paused (sms-default)"]
/// ```
struct PlainNarration {
    /// What a row was at the last event.
    private struct Seen: Equatable {
        var name: String
        var run: RunState
        var mode: RunLoop.Mode?
        /// Its countdown's seconds left (zero or less past its end); `nil` while idle or for no countdown.
        var secondsLeft: Int?
        /// Whether its countdown is past its end: counting, at least a second is left.
        var isOvertime: Bool { (secondsLeft ?? 1) <= 0 }

        init(_ row: RowState) {
            (name, run, mode) = (row.name, row.run, row.mode)
            secondsLeft = row.button?.secondsLeft
        }
    }

    /// The last fire (or hook end) of a timer that was told, how many were not told since, and how
    /// long after it the next is told.
    private struct Told {
        var time: Instant
        var mode: RunLoop.Mode?
        var untold = 0
        var spacing = PlainNarration.fireSpacing
    }

    /// The time between the first told fire of a timer after a change and the next told.
    static let fireSpacing: Duration = .seconds(10)
    /// The longest time between two told fires of a timer that nothing changed.
    static let steadySpacing: Duration = .seconds(60)

    private var seen: [RowID: Seen] = [:]
    /// The rows waiting for their mode at the last event.
    private var waiting: Set<RowID> = []
    /// The modes of the nested runs at the last event, innermost last.
    private var runModes: [RunLoop.Mode] = []
    private var hint: String?
    /// The focused panel and its selected row at the last event.
    private var focus: Panel = .countdowns
    private var selectedRow: RowID?
    /// Whether the key list was open at the last event.
    private var helpWasOpen = false
    private var prompt: Prompt?
    private var page: Page = .panels
    private var lapsShown: RowID?
    private var toldFires: [RowID: Told] = [:]
    private var toldHookEnds: [RowID: Told] = [:]

    /// A narration that starts from `state`: only what changes after it is told.
    init(_ state: DashboardState, commonModes: [RunLoop.Mode]) {
        remember(state, commonModes: commonModes)
    }

    /// The lines for what the last applied event changed: the fires it logged that are told (an
    /// alarm's as ringing; from the log's `firstNewEntry`-th entry ever appended), then each row
    /// started, stopped, suspended, resumed, invalidated, moved, added or deleted, a countdown
    /// passing a mark or its end, then the timers a nested run paused or resumed, the selection,
    /// the key list, a page or the laps shown, the open prompt, and the status message a key left
    /// (even one it left before) or a new one (a stopwatch's lap). `snapshot` gives the big-digit
    /// page's time.
    mutating func lines(
        after event: Event, state: DashboardState, firstNewEntry: Int, commonModes: [RunLoop.Mode],
        snapshot: (() -> DashboardSnapshot)? = nil
    ) -> [String] {
        var lines: [String] = []
        if case .key(.enter) = event, let typed = prompt, typed.purpose != state.prompt?.purpose {
            lines.append(typed.plainEcho)
        }
        let log = state.log
        let new = min(log.totalAppended - firstNewEntry, log.count)
        for index in (log.count - new)..<log.count {
            let record = log[index]
            guard state.contains(record.row) else {
                lines.append(Self.line(for: record))
                continue
            }
            let row = state[record.row]
            if row.kind.isAlarm && !record.isHookEnd {
                lines.append(Self.rang(record, row))
            } else if record.isHookEnd {
                if let line = Self.tell(record, periodically: true, told: &toldHookEnds) { lines.append(line) }
            } else if let line = Self.tell(record, periodically: row.button == nil, told: &toldFires) {
                lines.append(line)
            }
        }
        for row in state.rows {
            let now = Seen(row)
            guard let before = seen[row.id] else {
                lines.append("\(row.name) added" + (row.run == .running ? ", \(Self.started(row.mode))" : ""))
                continue
            }
            if now.isOvertime && !before.isOvertime, let label = row.button?.label {
                lines.append("\(row.name) passed its end: counting on in overtime (\(label))")
            } else if let left = Self.mark(from: before.secondsLeft, to: now.secondsLeft) {
                lines.append("\(row.name): \(left)")
            }
            if let change = Self.change(from: before, to: now) {
                lines.append("\(row.name) \(change)")
                forgetTold(row.id)
            }
        }
        let ids = Set(state.rows.map(\.id))
        for (id, before) in seen where !ids.contains(id) {
            lines.append("\(before.name) deleted")
            forgetTold(id)
        }
        let modes = state.runs.map(\.mode)
        let nowWaiting = Self.waiting(in: state, commonModes: commonModes)
        if modes != runModes {
            let entered = modes.count > runModes.count
            let run = entered ? modes.last : runModes.last
            let changed = entered ? nowWaiting.subtracting(waiting) : waiting.subtracting(nowWaiting)
            lines.append("\(run?.rawValue ?? "run"): " + Self.pausedOrResumed(changed, paused: entered, in: state))
        }
        // A timer that waited for its mode, or starts to: its next fire is told again.
        for id in nowWaiting.symmetricDifference(waiting) { forgetTold(id) }
        if state.focus != focus || state.selectedRow?.id != selectedRow { lines.append(Self.selection(in: state)) }
        if state.isHelpVisible && !helpWasOpen {
            // What the screen's overlay shows, a line each, unwrapped: each stands alone.
            lines += state.messages + (state.uploadsLabel.map { ["Uploads go to \($0)"] } ?? [])
            lines += Keymap.spokenHelp(state.keys)
            lines.append("end of the key list; ? or Esc closes it")
        }
        if state.page != page { lines.append(Self.pageLine(state, snapshot: snapshot)) }
        if let id = state.lapsShown, id != lapsShown, state.contains(id) { lines += Self.lapLines(state[id]) }
        lines += promptLines(after: event, state: state, closedHelp: helpWasOpen && !state.isHelpVisible)
        remember(state, commonModes: commonModes)
        return lines
    }

    /// What the open prompt, or the one the event closed, says: its question once when it opens;
    /// nothing while it is typed into; what was typed when Tab asks for it; what is wrong at a
    /// refused Enter; and the status message as the other lines do once no prompt is open (what was
    /// typed is echoed first, at the Enter that closed it).
    private func promptLines(after event: Event, state: DashboardState, closedHelp: Bool) -> [String] {
        let key: Key? = if case .key(let key) = event { key } else { nil }
        switch (prompt, state.prompt) {
        case (_, let open?) where open.purpose != prompt?.purpose:
            return [open.plainQuestion]
        case (_, let open?):
            if key == .tab {
                let typed = open.text.isEmpty ? "nothing yet" : open.text
                return ["you typed: \(typed)" + (state.promptProblem.map { "; \($0)" } ?? "")]
            }
            if key == .enter {
                // Enter refused: what is wrong, and the prompt stays open.
                let problem = state.promptProblem ?? state.hint.flatMap { $0 == state.promptLine ? nil : $0 }
                return ["\(open.plainEcho): not yet: \(problem ?? "Enter again, or Esc cancels")"]
            }
            // Typing is not told; a message that something else left is.
            guard key == nil, let text = state.hint, text != hint, text != state.promptLine else { return [] }
            return [text]
        case (_, nil):
            // The message a key left (again, when it is the same) or a new one; not the one that
            // was shown before the help was opened and closed.
            guard let text = state.hint, text != hint || key != nil && !closedHelp else { return [] }
            return [text]
        }
    }

    /// `record` as a line when it is told: the first fire (or hook end) of its timer since a
    /// change, one in another mode than the last told, and — when `periodically` — one the last
    /// told's spacing or more after it, with how many there were since; each such line doubles the
    /// spacing, up to ``steadySpacing``.
    private static func tell(_ record: FireRecord, periodically: Bool, told: inout [RowID: Told]) -> String? {
        guard let last = told[record.row], last.mode == record.mode else {
            told[record.row] = Told(time: record.time, mode: record.mode)
            return line(for: record)
        }
        let since = last.time.duration(to: record.time)
        guard periodically, since >= last.spacing else {
            told[record.row]?.untold += 1
            return nil
        }
        told[record.row] = Told(time: record.time, mode: record.mode, spacing: min(last.spacing * 2, steadySpacing))
        guard last.untold > 0 else { return line(for: record) }
        let what = record.isHookEnd ? "hook ends" : "fires"
        return line(for: record) + " (\(last.untold + 1) \(what) in \(DurationText.abbreviations(since)[0]))"
    }

    private mutating func forgetTold(_ id: RowID) {
        toldFires[id] = nil
        toldHookEnds[id] = nil
    }

    /// What is left of a countdown whose seconds left went from `before` to `now`, when that passed
    /// a mark: `1 minute left` (each minute in the last ten, then each five), `30 seconds left`,
    /// `10 seconds left`; past its end, `2 minutes past its end` at each minute.
    static func mark(from before: Int?, to now: Int?) -> String? {
        guard let before, let now, now < before else { return nil }
        if now > 0 {
            let isMark = { (left: Int) in left == 10 || left == 30 || left % 60 == 0 && (left <= 600 || left % 300 == 0)
            }
            return (now..<before).contains(where: isMark) ? "\(amount(seconds: now)) left" : nil
        }
        let (over, was) = (-now, max(-before, 0))
        return over / 60 > was / 60 ? "\(amount(seconds: over)) past its end" : nil
    }

    /// `1 hour 2 minutes 5 seconds`, without the parts that are zero.
    static func amount(seconds: Int) -> String {
        let parts = [(seconds / 3_600, "hour"), (seconds / 60 % 60, "minute"), (seconds % 60, "second")]
        return parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: " ")
    }

    /// The page now shown, as a line: what it is, and on the big-digit page what its digits say.
    private static func pageLine(_ state: DashboardState, snapshot: (() -> DashboardSnapshot)?) -> String {
        switch state.page {
        case .panels: return "page 1: the panels; Tab moves between them"
        case .lab: return "page 2: the lifetime lab; 1 returns to the panels"
        case .phases: return "page 3: the run loop's phases; 1 returns to the panels"
        case .timeline: return "page 4: the timeline; r reads every timer's state, 1 returns to the panels"
        case .bigDigits:
            guard let row = state.focusedRow else { return "page 5: big digits, no timer to show: a adds one" }
            guard let snapshot = snapshot?() else { return "page 5: big digits of \(row.name); r reads its time" }
            let display = snapshot.displayState(of: row)
            return "page 5: big digits of \(row.name): \(BigDigitsPanel.timeText(row, of: snapshot)), "
                + BigDigitsPanel.statusText(display, snapshot: snapshot)
                + "; up and down choose the timer, 1 returns to the panels"
        }
    }

    /// A stopwatch's laps (`v`), a line each: `run lap 2: 00:58.1, split 02:00.4, fastest`.
    private static func lapLines(_ row: RowState) -> [String] {
        let laps = row.stopwatch?.laps ?? []
        guard !laps.isEmpty else { return ["\(row.name) has no laps yet: L takes one while it runs"] }
        let each = laps.map { lap in
            let mark = lap.isFastest == lap.isSlowest ? "" : lap.isFastest ? ", fastest" : ", slowest"
            return
                "\(row.name) lap \(lap.number): \(ClockText.stopwatch(lap.time)), split \(ClockText.stopwatch(lap.split))\(mark)"
        }
        return ["laps of \(row.name): \(laps.count)"] + each + ["end of the laps; v or Esc closes them"]
    }

    /// The state of every timer on one line: what the plain mode's report key prints. A countdown
    /// tells its button (`+01:23` in overtime), an alarm its wall-clock time, a stopwatch its time
    /// run and its laps.
    ///
    /// `at 7.500s: sms-default waiting for mode (default, due, Resend (57)); sms-gcd running (any mode, in 500ms)`
    static func report(_ snapshot: DashboardSnapshot) -> String {
        let elapsed = PanelText.logTime(snapshot.loop.startTime.duration(to: snapshot.loop.now))
        let rows = snapshot.state.rows.map { row in
            let display = snapshot.displayState(of: row)
            var details = [PanelText.mode(row.mode)]
            if display == .running || display == .waitingForMode {
                details.append(PanelText.relative(snapshot.reading(of: row).nextFire, now: snapshot.loop.now))
            }
            if let label = row.button?.label { details.append(label) }
            if row.kind.isAlarm { details.append("alarm at \(row.alarmTime.text)") }
            if let watch = row.stopwatch {
                let laps = watch.splits.count
                details.append(
                    "\(ClockText.stopwatch(watch.elapsed(at: snapshot.loop.now))) run, \(laps) lap\(laps == 1 ? "" : "s")"
                )
            }
            return "\(row.name) \(display) (\(details.joined(separator: ", ")))"
        }
        return "at \(elapsed): " + (rows.isEmpty ? "no timers" : rows.joined(separator: "; "))
    }

    private mutating func remember(_ state: DashboardState, commonModes: [RunLoop.Mode]) {
        seen = Dictionary(uniqueKeysWithValues: state.rows.map { ($0.id, Seen($0)) })
        waiting = Self.waiting(in: state, commonModes: commonModes)
        runModes = state.runs.map(\.mode)
        hint = state.hint
        focus = state.focus
        selectedRow = state.selectedRow?.id
        helpWasOpen = state.isHelpVisible
        prompt = state.prompt
        page = state.page
        lapsShown = state.lapsShown
    }

    /// What the focus and the selection are now: `selected tea in the countdowns panel: idle,
    /// default mode (s starts or stops it, p suspends, m moves, f fires, x invalidates)`, with the
    /// keys the config bound.
    private static func selection(in state: DashboardState) -> String {
        let panel = panelName(state.focus)
        guard let row = state.selectedRow else { return "focus: the \(panel), no timer selected" }
        let key = { (action: KeyAction) in state.keys.key(of: action) }
        return "selected \(row.name) in the \(panel): \(row.run), \(PanelText.mode(row.mode)) "
            + "(\(key(.startStop)) starts or stops it, \(key(.pause)) suspends, \(key(.mode)) moves, "
            + "\(key(.fire)) fires, \(key(.invalidate)) invalidates)"
    }

    /// A panel in words.
    private static func panelName(_ panel: Panel) -> String {
        switch panel {
        case .countdowns: "countdowns panel"
        case .ticker: "ticker panel"
        case .inspector: "timers panel"
        case .log: "fire log"
        case .uploads: "uploads panel"
        }
    }

    /// A fire, or a hook's end, as a line: `sms-default fired in default mode, 2.5s late`.
    private static func line(for record: FireRecord) -> String {
        if record.isHookEnd { return "\(record.timer): \(record.note ?? "hook ended")" }
        var line = "\(record.timer) fired " + (record.mode.map { "in \($0.rawValue) mode" } ?? "on its queue")
        if record.lateness >= .milliseconds(1) { line += ", \(DurationText.abbreviations(record.lateness)[0]) late" }
        if record.ticks > 1 { line += ", \(record.ticks) ticks at once" }
        if let note = record.note { line += " (\(note))" }
        return line
    }

    /// An alarm's fire as a line: `lunch rang: alarm at 14:30, 2s late`.
    private static func rang(_ record: FireRecord, _ row: RowState) -> String {
        var line = "\(record.timer) rang: alarm at \(row.alarmTime.text)"
        if record.lateness >= .milliseconds(1) { line += ", \(DurationText.abbreviations(record.lateness)[0]) late" }
        if let note = record.note { line += " (\(note))" }
        return line
    }

    /// What became of a row, or `nil` when nothing told changed.
    private static func change(from before: Seen, to now: Seen) -> String? {
        switch (before.run, now.run) {
        case (.idle, .running), (.invalid, .running): return started(now.mode)
        case (.suspended, .running): return "resumed"
        case (_, .suspended) where before.run != .suspended: return "suspended"
        case (_, .idle) where before.run != .idle: return "stopped"
        case (_, .invalid) where before.run != .invalid: return "invalidated"
        default: return before.mode != now.mode ? "moved to \(PanelText.mode(now.mode)) mode" : nil
        }
    }

    private static func started(_ mode: RunLoop.Mode?) -> String {
        "started " + (mode.map { "in \($0.rawValue) mode" } ?? "on its queue")
    }

    /// The rows whose timer runs but waits: the loop runs a mode that is not theirs (M2).
    private static func waiting(in state: DashboardState, commonModes: [RunLoop.Mode]) -> Set<RowID> {
        let mode = state.runs.last?.mode ?? .default
        return Set(
            state.rows.filter { $0.displayState(inMode: mode, commonModes: commonModes) == .waitingForMode }.map(\.id))
    }

    /// `default-mode timers paused (sms-default, ticker)`, by the modes of the rows `ids`.
    private static func pausedOrResumed(_ ids: Set<RowID>, paused: Bool, in state: DashboardState) -> String {
        let rows = state.rows.filter { ids.contains($0.id) && $0.run == .running }
        guard !rows.isEmpty else { return paused ? "no running timer waits" : "no timer was waiting" }
        var modes: [String] = []
        for row in rows where !modes.contains(PanelText.mode(row.mode)) { modes.append(PanelText.mode(row.mode)) }
        let names = rows.map(\.name).joined(separator: ", ")
        let kinds = modes.map { "\($0)-mode" }.joined(separator: " and ")
        return "\(kinds) timers \(paused ? "paused" : "resumed") (\(names))"
    }
}
