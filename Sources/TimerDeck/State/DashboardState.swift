import RunLoopKit
import TerminalUI
import Uploads

/// The whole dashboard as a value: focus, selection, scrollback, gesture, help, hint, layout, the
/// fire log, the pipeline's status and one ``RowState`` per timer.
///
/// Every input is an ``Event``; ``apply(_:)`` changes the state and returns the ``Effect``s the
/// driver performs on the run loop, the timers and the screen. Nothing here touches a run loop, so
/// the dashboard's behaviour is testable as plain values. Only ``apply(_:)`` changes a state the
/// dashboard uses:
///
/// ```swift
/// var state = DashboardState(scene: .standard(Config()), size: Size(width: 80, height: 24))
/// let effects = state.apply(.key(.enter))   // [.renderRow(RowID(number: 0)), .start(RowID(number: 0)), .refreshTimes(…)]
/// ```
struct DashboardState: Sendable {
    /// Extra time each ticker callback takes while the slow load is on: longer than a frame (D3).
    static let slowLoad: Duration = .milliseconds(40)
    /// How often the "next in …" columns are redrawn while a timer runs, and how loosely: the
    /// refresh rides on wake-ups the running timers cause anyway.
    static let timesRefresh = (interval: Duration.seconds(1), tolerance: Duration.milliseconds(250))
    /// The phases view redraws when the loop wakes anyway, at most this often: it never wakes the
    /// loop itself.
    static let phasesRedraw: Duration = .milliseconds(250)

    /// Every timer row, in the inspector's order; ``append(_:)`` and ``remove(_:)`` add and take one.
    private(set) var rows: [RowState]
    /// Where each row is in ``rows``: a row is found by its id in O(1).
    private var positions: [RowID: Int]
    /// How many rows were ever made: the number of the next one (``RowID``).
    var rowsMade: Int
    /// How many rows the scene defined: a row numbered from there on was added with `a`.
    let sceneRowCount: Int
    /// The upload panel's sink label; `nil` when the dashboard has no pipeline.
    let uploadsLabel: String?
    /// The quiet period that ends a scroll gesture (decision 7).
    let gestureQuiet: Duration
    /// The machine sleep `z` simulates (G3).
    let simulatedSleep: Duration
    /// Where the panels go, at the screen's current size.
    var layout: DashboardLayout
    /// The panel with focus.
    var focus: Panel = .countdowns
    /// The selected row of each panel (0 when absent).
    var selection: [Panel: Int] = [:]
    /// How many entries the log view is scrolled back from the newest (0 follows new entries).
    var scrollback = 0
    /// The runs of the loop nested in the session's run, innermost last (C-M11): only
    /// ``apply(_:)`` enters and ends them, each ``Effect/endRun(_:)`` naming the one it ends.
    var runs: [NestedRun] = []
    /// The timer the last `d` deleted and where it was, until `u` puts it back.
    var lastDeleted: DeletedTimer?
    /// The line being typed in the status bar (`W`), if any: it takes every key.
    var prompt: Prompt?
    /// What fills the screen: the panels, the lab, the phases or the timeline.
    var page: Page = .panels
    /// The lifetime lab's selected strategy (L1–L3).
    var labStrategy: LabStrategy = .strongTarget
    /// Whether the help overlay is shown (keys other than `?`, `Esc` and `q` then do nothing).
    var isHelpVisible = false
    /// The stopwatch whose laps are shown over the panels (`v`), if any.
    var lapsShown: RowID?
    /// The first help line shown, when the keys do not all fit (↑ ↓ scroll them).
    var helpOffset = 0
    /// A short message for the status bar until the next key (an ignored key, a refused action);
    /// the help, opened and scrolled, keeps it and shows it in full.
    var hint: String?
    /// What an alarm's ring or a countdown's end says in the status bar, until a key.
    var alert: String?
    /// Whether the status bar said that the desktop notifications' program is missing.
    var toldNotifierMissing = false
    /// Whether the status bar said which audio player plays the sounds, or that none could.
    var toldSoundPlayer = false
    /// How much the dashboard moves by itself: with `none`, rows do not flash.
    let animations: Animations
    /// Every fire, bounded.
    var log: FireLog
    /// What the upload pipeline is doing (S2), once it has said.
    var uploads: UploadStatus?
    /// Set by `q` or a terminating signal; the keys after it do nothing.
    var quitRequested = false
    /// Whether the "next in …" columns are being refreshed (while any timer runs).
    var refreshesTimes = false
    /// When the phases view last redrew.
    var phasesDrawn: Instant?
    /// Where the time-control keys left the dashboard's clock; `nil` when the clock has no time
    /// controls (a test rig on a plain virtual clock), and the keys say so.
    var time: TimeStatus?
    /// When the dashboard started on its clock: the origin of the fire log's, the trace's and the
    /// hooks' times.
    let startTime: Instant
    /// The keys the config moved, over the default keymap.
    let keys: KeyBindings

    /// The state of `scene` on a screen of `size`, nothing started yet (``Event/launch`` starts it),
    /// for a dashboard started at `startTime` on its clock, which the time-control keys find at
    /// `time` (`nil`: a clock without time controls).
    init(scene: Scene, size: Size, startTime: Instant = .zero, time: TimeStatus? = TimeStatus()) {
        self.startTime = startTime
        self.time = time
        keys = scene.keys
        rows = scene.timers.enumerated().map { index, timer in RowState(timer, id: RowID(number: index)) }
        positions = Self.positions(of: rows)
        rowsMade = scene.timers.count
        sceneRowCount = scene.timers.count
        uploadsLabel = scene.uploadsLabel
        gestureQuiet = scene.gestureQuiet
        simulatedSleep = scene.simulatedSleep
        animations = scene.animations
        log = FireLog(capacity: scene.logCapacity)
        layout = Self.layout(of: rows, on: size, hasUploads: scene.uploadsLabel != nil)
        keepSelectionsOnRows()
    }

    /// The row `id` names; it must exist (``contains(_:)``).
    subscript(id: RowID) -> RowState {
        get { rows[position(of: id)] }
        set { rows[position(of: id)] = newValue }
    }

    /// Whether the row `id` is still there (a deleted row's late fires and hook ends are dropped).
    func contains(_ id: RowID) -> Bool { positions[id] != nil }

    private func position(of id: RowID) -> Int {
        guard let position = positions[id] else {
            preconditionFailure("DashboardState: \(id) is not a row (deleted?); check contains(_:) first")
        }
        return position
    }

    /// Adds `row` after the others; the layout and the selections follow.
    mutating func append(_ row: RowState) {
        insert(row, at: rows.count)
    }

    /// Adds `row` at `position` in ``rows`` (at the end when past it); the layout and the
    /// selections follow.
    mutating func insert(_ row: RowState, at position: Int) {
        rows.insert(row, at: min(position, rows.count))
        positions = Self.positions(of: rows)
        rowsChanged()
    }

    /// Takes the row `id` away; the layout and the selections follow.
    mutating func remove(_ id: RowID) {
        rows.remove(at: position(of: id))
        if lapsShown == id { lapsShown = nil }
        positions = Self.positions(of: rows)
        rowsChanged()
    }

    /// The layout of `rows` on `size`: the panels of rows the scene lacks give their room to the others.
    private static func layout(of rows: [RowState], on size: Size, hasUploads: Bool) -> DashboardLayout {
        let countdowns = rows.filter { $0.button != nil || $0.stopwatch != nil || $0.kind.isAlarm }.count
        return DashboardLayout(
            size: size, rowCount: rows.count, hasUploads: hasUploads, hasCountdowns: countdowns > 0,
            hasTicker: rows.contains { $0.ticker != nil }, countdownCount: countdowns)
    }

    private static func positions(of rows: [RowState]) -> [RowID: Int] {
        Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.id, $0) })
    }

    private mutating func rowsChanged() {
        layout = Self.layout(of: rows, on: layout.size, hasUploads: uploadsLabel != nil)
        keepSelectionsOnRows()
    }

    /// Changes the state for `event` and returns what the driver must do, in order. While any
    /// timer runs, the relative times are refreshed every second; with every timer stopped or
    /// paused, the refresh stops too and the dashboard sleeps.
    mutating func apply(_ event: Event) -> [Effect] {
        var effects = reduce(event)
        if anyRunning != refreshesTimes {
            refreshesTimes = anyRunning
            let refresh: Effect =
                refreshesTimes
                ? .refreshTimes(every: Self.timesRefresh.interval, tolerance: Self.timesRefresh.tolerance)
                : .stopRefreshingTimes
            effects.insert(refresh, at: effects.last?.blocks == true ? effects.count - 1 : effects.count)
        }
        return effects
    }

    private mutating func reduce(_ event: Event) -> [Effect] {
        if let id = event.row, !contains(id) { return [] }
        switch event {
        case .launch: return launch()
        case .key(let key):
            guard !quitRequested else { return [] }
            // A key dismisses an alarm's or a countdown's alert, and does what it does.
            let dismissed = alert != nil
            alert = nil
            return (dismissed ? [.render(.status)] : []) + receive(key)
        case .fired(let id, let fire): return fired(id, fire, rate: time?.rate ?? .normal)
        case .pipelineStatus(let status):
            uploads = status
            // The help overlay shows the pipeline's messages in full.
            return [.render(isHelpVisible ? [.uploads, .inspector, .help] : [.uploads, .inspector])]
        case .resize(let size):
            layout = Self.layout(of: rows, on: size, hasUploads: uploadsLabel != nil)
            scrollback = min(scrollback, maxScrollback)
            return [.render(.all)]
        case .focus(let panel): return focus(on: panel)
        case .tick:
            let clocks = alarmRows.isEmpty && stopwatchRows.isEmpty
            return [.render(clocks ? [.inspector, .uploads] : [.inspector, .uploads, .countdowns])]
        case .gestureQuiet: return gesture == .scrolling ? endRun(.tracking) : []
        case .runEnded(let mode): return runEnded(mode)
        case .terminate: return quit()
        case .notice(let text):
            hint = text
            return [.render(.status)]
        case .hookFinished(let id, let result, let time): return hookFinished(id, result, at: time)
        case .fileExists(let export, let path, let isRunningConfig):
            return askToOverwrite(export, path, isRunningConfig: isRunningConfig)
        case .stopwatch(let id, let action, let time): return stopwatchAction(id, action, at: time)
        case .restore(let saved, let wallNow, let notice): return restore(saved, wallNow: wallNow, notice: notice)
        case .deleted(let id, let kept, let wallNow):
            guard lastDeleted?.row.id == id else { return [] }
            lastDeleted?.kept = kept
            lastDeleted?.deletedAt = wallNow
            return []
        case .putBack(let id, let entry, let wallNow): return putBack(id, as: entry, wallNow: wallNow)
        case .notified(let id, let result): return notified(id, result)
        case .soundPlayed(let id, let result): return soundPlayed(id, result)
        case .woke(let time):
            // The phases page shows the wake-ups: while it is shown, each goes to the trace too.
            guard page == .phases else { return [] }
            guard phasesDrawn.map({ $0.duration(to: time) >= Self.phasesRedraw }) ?? true else {
                return [.traceWakeUp]
            }
            phasesDrawn = time
            return [.traceWakeUp, .render(.all)]
        case .labChanged: return page == .lab ? [.render(.all)] : []
        case .flashEnded(let id):
            self[id].isFlashing = false
            return redraw(self[id])
        }
    }

    // MARK: Derived views of the rows

    /// Whether the timeline view (`4`) is shown instead of the panels.
    var isTimelineVisible: Bool { page == .timeline }
    /// The rows with an SMS button, in the SMS panel's order.
    var buttonRows: [RowState] { rows.filter { $0.button != nil } }
    /// The stopwatches, in the order of the rows.
    var stopwatchRows: [RowState] { rows.filter { $0.stopwatch != nil } }
    /// The alarms, in the order of the rows.
    var alarmRows: [RowState] { rows.filter { $0.kind.isAlarm } }
    /// The rows the SMS panel lists: the buttons, the stopwatches, then the alarms beside them
    /// (wall-clock deadlines beside uptime countdowns); more than it shows at once scroll.
    var countdownPanelRows: [RowState] { buttonRows + stopwatchRows + alarmRows }
    /// The first of ``countdownPanelRows`` the SMS panel shows: the selected row stays in view.
    var countdownsShownFrom: Int {
        let room = layout.countdownRows
        return max(min(selected(.countdowns) - room + 1, countdownPanelRows.count - room), 0)
    }
    /// The upload pipeline's rows, in the upload panel's order.
    var jobRows: [RowState] { rows.filter { $0.uploadJob != nil } }
    /// The display link row.
    var tickerRow: RowState? { rows.first { $0.ticker != nil } }
    /// Whether any timer is scheduled and not held (the relative times then need a refresh).
    var anyRunning: Bool { rows.contains { $0.run == .running } }

    /// The selected row of `panel`.
    func selected(_ panel: Panel) -> Int { selection[panel] ?? 0 }

    /// The panels on screen, in `Tab` order: the upload panel only with a pipeline to show, the SMS
    /// panel and the ripple only with their rows.
    var panels: [Panel] {
        Panel.allCases.filter { panel in
            switch panel {
            case .uploads: layout.uploads != nil
            case .countdowns: layout.countdowns != nil
            case .ticker: layout.ticker != nil
            case .inspector, .log: true
            }
        }
    }

    /// The rows `panel` lists, in its order (the fire log lists fires, not rows).
    func rows(of panel: Panel) -> [RowState] {
        switch panel {
        case .countdowns: countdownPanelRows
        case .inspector: rows
        case .ticker: tickerRow.map { [$0] } ?? []
        case .uploads: jobRows
        case .log: []
        }
    }

    /// The row the focus view (`5`) shows: the selected row, or the timers panel's when the
    /// focused panel has none (the fire log).
    var focusedRow: RowState? {
        if let selectedRow { return selectedRow }
        return rows.indices.contains(selected(.inspector)) ? rows[selected(.inspector)] : nil
    }

    /// The row the keys `s`, `p`, `m`, `f`, `x` act on, if the focused panel has one selected.
    var selectedRow: RowState? {
        let candidates = rows(of: focus)
        return candidates.indices.contains(selected(focus)) ? candidates[selected(focus)] : nil
    }

    /// Keeps each panel's selection on one of its rows after rows came or went (`a`, `d`).
    mutating func keepSelectionsOnRows() {
        for panel in Panel.allCases where selection[panel] != nil {
            selection[panel] = min(selected(panel), max(rows(of: panel).count - 1, 0))
        }
        // A panel that went away (its last row deleted, or none in the scene) passes the focus on.
        if !panels.contains(focus) { focus = panels.first { $0.rawValue > focus.rawValue } ?? .inspector }
    }

    /// The furthest back the log view goes: the oldest page fills the panel.
    var maxScrollback: Int { max(log.count - layout.logPage, 0) }

    /// Redraws what shows `row` (its SMS button and inspector line, the ticker or upload panel it
    /// has) and `parts`: a key or a fire that changes one row redraws that row, not its panels.
    func redraw(_ row: RowState, also parts: ViewParts = []) -> [Effect] {
        var panels = parts
        if row.ticker != nil { panels.insert(.ticker) }
        if row.uploadJob != nil { panels.insert(.uploads) }
        return panels.isEmpty ? [.renderRow(row.id)] : [.render(panels), .renderRow(row.id)]
    }

    // MARK: Changes shared by the extensions

    /// `q`, a terminating signal: ends the nested runs, innermost first, then the session's run.
    mutating func quit() -> [Effect] {
        quitRequested = true
        return endRuns(from: 0) + [.quit]
    }

    /// Records a fire in the log; a log view scrolled back stays on the entries it shows.
    mutating func record(_ record: FireRecord) {
        log.append(record)
        if scrollback > 0 { scrollback = min(scrollback + 1, maxScrollback) }
    }

    private mutating func launch() -> [Effect] {
        var effects: [Effect] = [.render(.all)]
        var startsUploads = false
        for row in rows where row.startsAtLaunch {
            self[row.id].run = .running
            // A countdown that starts with the dashboard counts from its start, as `s` makes it;
            // a ready button's timer would otherwise end it at its first fire.
            self[row.id].button?.press()
            if row.uploadJob != nil {
                startsUploads = true
            } else {
                effects += [.start(row.id)] + stopwatchEffects(row, .start)
            }
        }
        if startsUploads { effects.append(.startUploads) }
        return effects
    }
}
