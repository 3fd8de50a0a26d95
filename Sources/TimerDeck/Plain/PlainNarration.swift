import RunLoopKit

/// What the plain mode (`--plain`) writes: one line per thing that happened, for a screen reader
/// or a terminal without cursor movement. The lines come from the state machine — the fire log's
/// new entries and what an applied event changed in the rows, the nested runs and the status
/// message — never from the screen, so every row kind, whatever it draws, is told the same way.
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
        /// Whether its countdown is past its end.
        var isOvertime = false

        init(_ row: RowState) {
            (name, run, mode) = (row.name, row.run, row.mode)
            isOvertime = row.button?.isOvertime ?? false
        }
    }

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

    /// A narration that starts from `state`: only what changes after it is told.
    init(_ state: DashboardState, commonModes: [RunLoop.Mode]) {
        remember(state, commonModes: commonModes)
    }

    /// The lines for what the last applied event changed: the fires it logged (an alarm's as
    /// ringing; from the log's `firstNewEntry`-th entry ever appended), then each row started,
    /// stopped, suspended, resumed, invalidated, moved, added or deleted, a countdown passing its
    /// end into overtime, then the timers a nested run paused or resumed, then
    /// the status message a key left (even one it left before) or a new one (a stopwatch's lap).
    mutating func lines(after event: Event, state: DashboardState, firstNewEntry: Int, commonModes: [RunLoop.Mode])
        -> [String]
    {
        var lines: [String] = []
        let log = state.log
        let new = min(log.totalAppended - firstNewEntry, log.count)
        for index in (log.count - new)..<log.count {
            let record = log[index]
            let alarm = state.contains(record.row) && state[record.row].kind.isAlarm && !record.isHookEnd
            lines.append(alarm ? Self.rang(record, state[record.row]) : Self.line(for: record))
        }
        for row in state.rows {
            let now = Seen(row)
            guard let before = seen[row.id] else {
                lines.append("\(row.name) added" + (row.run == .running ? ", \(Self.started(row.mode))" : ""))
                continue
            }
            if now.isOvertime && !before.isOvertime, let label = row.button?.label {
                lines.append("\(row.name) passed its end: counting on in overtime (\(label))")
            }
            if let change = Self.change(from: before, to: now) { lines.append("\(row.name) \(change)") }
        }
        let ids = Set(state.rows.map(\.id))
        for (id, before) in seen where !ids.contains(id) { lines.append("\(before.name) deleted") }
        let modes = state.runs.map(\.mode)
        let nowWaiting = Self.waiting(in: state, commonModes: commonModes)
        if modes != runModes {
            let entered = modes.count > runModes.count
            let run = entered ? modes.last : runModes.last
            let changed = entered ? nowWaiting.subtracting(waiting) : waiting.subtracting(nowWaiting)
            lines.append("\(run?.rawValue ?? "run"): " + Self.pausedOrResumed(changed, paused: entered, in: state))
        }
        if state.focus != focus || state.selectedRow?.id != selectedRow { lines.append(Self.selection(in: state)) }
        if state.isHelpVisible && !helpWasOpen {
            // The key list the screen shows as an overlay, as lines: each stands alone.
            lines += state.helpLines.filter { !$0.isEmpty }.map { $0.trimmingCharacters(in: .whitespaces) }
            lines.append("end of the key list; ? or Esc closes it")
        }
        let isKey = if case .key = event { true } else { false }
        if let text = state.hint, text != hint || isKey { lines.append(text) }
        remember(state, commonModes: commonModes)
        return lines
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
            if row.kind.isAlarm { details.append("alarm at \(row.definition.firstFire.text)") }
            if let watch = row.stopwatch {
                let laps = watch.splits.count
                details.append(
                    "\(Stopwatch.text(watch.elapsed(at: snapshot.loop.now))) run, \(laps) lap\(laps == 1 ? "" : "s")")
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
        var line = "\(record.timer) rang: alarm at \(row.definition.firstFire.text)"
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
