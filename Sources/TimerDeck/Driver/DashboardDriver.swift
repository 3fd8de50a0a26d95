import Glibc
import RunLoopKit
import TerminalUI
import TimeUnits
import Uploads

/// Runs a ``DashboardState`` on a run loop: turns keys, fires, pipeline status, resizes and
/// wake-ups into ``Event``s for its ``DashboardStore``, and performs the ``Effect``s that
/// ``DashboardState/apply(_:)`` returns on the timers' adapters, the nested runs and the screen.
/// It decides how, never what: which rule applies is the state's (Docs/ARCHITECTURE.md, "The
/// app's state machine", lists what it still decides and why).
///
/// It lives on its run loop's thread. Scrolling the fire log runs the loop re-entrantly in the
/// tracking mode until the gesture ends (decisions.md 7), exactly like a UIScrollView drag runs the
/// main run loop in UITrackingRunLoopMode: default-mode timers visibly pause while common-mode ones
/// keep going (seed M2).
package final class DashboardDriver {
    /// The dashboard's state and the one way in to it.
    private let store: DashboardStore
    /// The dashboard's state; only ``send(_:)`` changes it.
    var state: DashboardState { store.state }
    /// The run loop everything is scheduled on.
    let loop: RunLoop
    private let screen: any Screen
    private let view: DashboardView
    private let pipeline: UploadPipeline?
    /// When the dashboard started on its clock (the state's origin of times).
    package var startTime: Instant { state.startTime }
    /// The real timer of each row.
    private var timers: [RowID: any RowTimer] = [:]
    /// The row of each upload job, whose fires the pipeline reports.
    private var jobRows: [UploadPipeline.Job: RowID] = [:]
    private var gestureEnd: Timer?
    private var relativeTimesRefresh: Timer?
    private var dirty: ViewParts = .all
    private var dirtyRows: Set<RowID> = []
    private var renderScheduled = false
    /// Whether a change is drawn at once (a terminal) or only when asked (a headless snapshot).
    private let rendersOnChange: Bool
    /// Where the session's input is recorded as a headless script (`--record FILE`), if anywhere.
    package var recorder: SessionRecorder?
    /// Where every fire and nested run is traced (`--trace FILE`), if anywhere.
    package var trace: TraceFile?
    /// Where the running and paused timers are kept across restarts, if anywhere; read at
    /// ``launch()`` unless ``startsFresh``, then written whenever what it keeps changes.
    package var stateFile: TimerStateFile? {
        didSet { history = stateFile.map { SessionHistoryFile(besideStateFile: $0.path) } }
    }
    /// Where finished sessions go: beside the timers file, kept only when it is.
    private var history: SessionHistoryFile?
    private var sessions = SessionTracker()
    /// Whether the timers the state file kept are left out at the start (`--fresh`).
    package var startsFresh = false
    /// What the state file holds now.
    private var lastSaved: SavedTimers?
    /// How old the state file's last save may grow while nothing it keeps changes.
    static let stateRenewal: Duration = .seconds(60)
    /// Whether a save waits for the end of the pass.
    private var saveScheduled = false
    /// Where the laps of every stopwatch go when the session ends (`--laps FILE`), if anywhere.
    package var laps: LapsFile?
    /// The config file the session was started with (`--config FILE`), which `W` does not
    /// overwrite without saying what is lost.
    package var configPath: String?
    /// The lifetime lab's screens (L1–L3); made at the first lab key. Weak: the screens' `deinit`s
    /// report while the driver itself goes away, and leaked ones outlive it.
    private lazy var lab = Lab(loop: loop) { [weak self] in self?.send(.labChanged) }
    /// Counts the loop's passes, sleeps and wake-ups from launch on (the phases view, `3`).
    private let phaseMeter: PhaseMeter
    /// Runs timers' hooks off the loop's thread; made at the first hook (``hooks``).
    private var hookRunner: HookRunner?
    /// Runs the program that shows desktop notifications, off the loop's thread; made at the first.
    private lazy var notifier = HookRunner(loop: loop) { [unowned self] id, result in send(.notified(id, result)) }
    /// The audio players a sound is tried with, in order (``EndSound/players``).
    var soundPlayers = EndSound.players
    private lazy var soundPlayer = HookRunner(loop: loop) { [unowned self] id, result in
        send(.soundPlayed(id, result))
    }
    /// The program that shows desktop notifications (``DesktopNotification/program``).
    var notifyProgram = DesktopNotification.program
    /// How the terminal shows notifications; `nil` (no terminal, or one that has none) shows them
    /// with ``notifyProgram``.
    package var terminalNotification: TerminalNotifier?
    /// Where the plain mode (`--plain`) writes its lines, one per call; `nil` on the screen.
    package var plainOutput: ((String) -> Void)? {
        didSet { narration = plainOutput.map { _ in PlainNarration(state, commonModes: loop.commonModes) } }
    }
    /// What the plain mode has told so far, to tell what changes next.
    private var narration: PlainNarration?

    /// A driver of `scene` on `loop`, drawing on `screen`; `pipeline` (on `loop`) drives the upload
    /// rows. The tracking mode is made common, as UIKit does (decisions.md 6). ``launch()`` starts it.
    init(scene: Scene, loop: RunLoop, screen: any Screen, pipeline: UploadPipeline?, rendersOnChange: Bool) {
        store = DashboardStore(
            DashboardState(scene: scene, size: screen.size, startTime: loop.now, time: Self.timeStatus(of: loop)))
        self.loop = loop
        self.screen = screen
        self.pipeline = pipeline
        self.rendersOnChange = rendersOnChange
        view = DashboardView(screen: screen)
        loop.addCommonMode(.tracking)
        phaseMeter = PhaseMeter(loop: loop, modes: RunLoop.Mode.inputModes)
        timers = Dictionary(uniqueKeysWithValues: state.rows.map { ($0.id, makeTimer(for: $0)) })
        store.performer = self
        phaseMeter.onWake = { [unowned self] in woke() }
        if let pipeline {
            pipeline.onFire = { [unowned self] job, fire in
                guard let id = jobRows[job] else { return }
                send(.fired(id, Fire(fire)))
            }
            pipeline.onChange = { [unowned self, unowned pipeline] in send(.pipelineStatus(pipeline.status)) }
            send(.pipelineStatus(pipeline.status))
        }
    }

    /// The time input is recorded on: the clock under the time controls, so a recording replays the
    /// same whether the dashboard's clock was paused or slowed down meanwhile (a script's waits are
    /// on that clock too).
    package var inputTime: Instant {
        guard case .controlled(let control) = loop.timeSource else { return loop.now }
        return control.base.now()
    }

    /// Whether `q` or a terminating signal asked to end the session.
    package var quitRequested: Bool { state.quitRequested }

    /// Starts what runs from launch; the first render happens inside the run, so it shows the mode.
    package func launch() {
        send(.launch)
        guard let stateFile else { return }
        let (saved, notice) = startsFresh ? (nil, stateFile.setAsideForFreshStart()) : stateFile.load()
        if saved != nil || notice != nil {
            send(.restore(saved ?? SavedTimers(), wallNow: loop.timeSource.now(.wall), notice: notice))
        }
        saveTimers()
    }

    /// Keeps the running and paused timers in the state file when they changed since the last
    /// save, when that save is ``stateRenewal`` old (its `saved` line tells a restart how long it
    /// was away, and whether the clock was set back), or when `always` (the quit). A countdown's
    /// tick changes nothing the file keeps (its end stays where it was), so a running countdown no
    /// longer writes and syncs the file every second.
    private func saveTimers(always: Bool = false) {
        saveScheduled = false
        guard let stateFile else { return }
        let saved = SavedTimers(state, now: loop.now, wallNow: loop.timeSource.now(.wall)) { [timers] in
            timers[$0]?.nextFire
        }
        if !always, let lastSaved, saved.entries == lastSaved.entries, saved.added == lastSaved.added,
            let then = lastSaved.savedAt, let now = saved.savedAt, then.duration(to: now) < Self.stateRenewal
        {
            return
        }
        lastSaved = saved
        if let problem = stateFile.save(saved) { send(.notice(problem)) }
    }

    /// Applies `event` and performs its effects (``DashboardStore/send(_:)``).
    func send(_ event: Event) {
        store.send(event)
    }

    /// Handles keys in order. A key that starts a nested run (a tracking gesture, `M`) runs it; the
    /// keys after it are handled inside that run, as a scroll view keeps receiving touches.
    package func receive(_ keys: [Key]) {
        var pressed: [Key] = []
        for key in keys {
            // The terminal's answers are not the user's keys: the notifier takes its own, the rest go.
            if case .terminalReply(let body) = key {
                terminalNotification?.receive(body)
            } else {
                pressed.append(key)
            }
        }
        if !pressed.isEmpty { recorder?.input(at: inputTime) }
        store.send(pressed.map { .key($0) })
    }

    /// The screen changed size (a resize, a return from Ctrl-Z): the layout follows.
    package func screenResized() {
        recorder?.resize(to: screen.size, at: inputTime)
        send(.resize(screen.size))
    }

    /// Ends the session as `q` does (a terminating signal).
    package func terminate() {
        send(.terminate)
    }

    /// Stops the hooks still running, with what they started: called once the session has ended.
    package func stopHooks() {
        hookRunner?.stopAll()
    }

    /// The hook runner, made at the first hook.
    private var hooks: HookRunner {
        if let hookRunner { return hookRunner }
        let runner = HookRunner(loop: loop) { [unowned self] id, result in
            send(.hookFinished(id, result, time: loop.now))
        }
        hookRunner = runner
        return runner
    }

    /// Shows `text` in the status bar and draws it at once (the last words before quitting).
    package func show(hint text: String) {
        send(.notice(text))
        render()
    }

    /// The state and the loop as the panels see them now.
    func snapshot() -> DashboardSnapshot {
        DashboardSnapshot(
            state: state,
            loop: LoopStatus(
                mode: loop.currentMode, depth: loop.nestingDepth, commonModes: loop.commonModes,
                now: loop.now, startTime: startTime, wallNow: loop.timeSource.now(.wall)),
            readings: timers.mapValues {
                RowReading(nextFire: $0.nextFire, framesPerSecond: ($0 as? DisplayLinkRowTimer)?.framesPerSecond)
            },
            lab: state.page == .lab ? lab.readings : [],
            phases: state.page == .phases ? phaseMeter.reading : nil)
    }

    /// Draws the parts that changed since the last render (`everything`: all of them) and flushes once.
    package func render(everything: Bool = false) {
        let parts = everything ? ViewParts.all : dirty
        let rows = dirtyRows
        dirty = []
        dirtyRows = []
        view.render(snapshot(), parts: parts, rows: rows)
    }

    private func makeTimer(for row: RowState) -> any RowTimer {
        let id = row.id
        let report: (Fire) -> Void = { [unowned self] fire in send(.fired(id, fire)) }
        switch row.kind {
        case .countdown(_, let mechanism), .timer(let mechanism), .stopwatch(_, let mechanism):
            return adapter(of: mechanism, for: row.definition, report: report)
        case .ripple(_, let refreshRate, _):
            return DisplayLinkRowTimer(loop: loop, refreshRate: refreshRate, name: row.name, onFire: report)
        case .uploadJob(let job, _, _):
            // The pipeline owns the job and reports its runs (through `onFire` above).
            guard let pipeline else { preconditionFailure("an upload row needs a pipeline: \(row.name)") }
            jobRows[job] = id
            return UploadJobRowTimer(pipeline: pipeline, job: job)
        }
    }

    /// The loop woke up: told to the state.
    private func woke() {
        send(.woke(at: loop.now))
    }

    /// Marks `parts` and the lines of `row` stale; the render runs once, in a common-mode block
    /// later in this pass.
    private func invalidate(_ parts: ViewParts, row: RowID? = nil) {
        dirty.formUnion(parts)
        if let row { dirtyRows.insert(row) }
        guard rendersOnChange, !renderScheduled else { return }
        renderScheduled = true
        loop.perform(inModes: RunLoop.Mode.inputModes) { [weak self] in
            guard let self else { return }
            renderScheduled = false
            render()
        }
    }
}

extension DashboardDriver: EffectPerformer {
    func applied(_ event: Event, firstNewEntry: Int) {
        if let trace { traceFires(since: firstNewEntry, to: trace) }
        if let trace, case .stopwatch(let id, .lap, let time) = event, state.contains(id),
            let lap = state[id].stopwatch?.laps.last
        {
            trace.lap(timer: state[id].name, lap, at: time, since: startTime, depth: loop.nestingDepth)
        }
        // Once the state file was read: saved after the event's effects, once a pass.
        if lastSaved != nil, !saveScheduled {
            saveScheduled = true
            soon { [weak self] in self?.saveTimers() }
        }
        if let history {
            for session in sessions.finished(after: event, state: state, wall: { loop.timeSource.now(.wall) }) {
                if let problem = history.append(session) { send(.notice(problem)) }
            }
        }
        if let plainOutput, var told = narration {
            let lines = told.lines(
                after: event, state: state, firstNewEntry: firstNewEntry, commonModes: loop.commonModes
            ) { [unowned self] in snapshot() }
            for line in lines {
                plainOutput(line)
            }
            narration = told
        }
        // Each key as it is applied, so the recording ends at the key that quit, whichever it is.
        if case .key(let key) = event { recorder?.key(key, quits: state.quitRequested) }
    }

    func soon(_ body: @escaping () -> Void) {
        loop.perform(inModes: RunLoop.Mode.inputModes, body)
    }

    /// Carries out `effect`; ``Effect/enterTracking(quiet:)`` and ``Effect/enterModal`` return only
    /// when their nested run ends.
    func perform(_ effect: Effect) {
        switch effect {
        case .start(let id): timers[id]?.start(for: state[id])
        case .stop(let id): timers[id]?.stop()
        case .suspend(let id): timers[id]?.suspend()
        case .resume(let id): timers[id]?.resume()
        case .move(let id, let mode):
            timer(id, as: (any MovableRowTimer).self, "moved (RowKind.lackOfModes)").move(to: mode)
            trace?.move(timer: state[id].name, to: mode, at: loop.now, since: startTime, depth: loop.nestingDepth)
        case .fire(let id):
            timer(id, as: (any FirableRowTimer).self, "fired by hand (RowKind.lackOfFireByHand)").fireNow()
        case .invalidate(let id): timers[id]?.invalidate()
        case .setFrameInterval(let id, let interval):
            timer(id, as: DisplayLinkRowTimer.self, "given a frame interval").setFrameInterval(interval)
        case .startUploads: pipeline?.start()
        case .work(let duration): work(for: duration)
        case .enterTracking(let quiet): track(quiet: quiet)
        case .extendGesture(let quiet): gestureEnd?.fireDate = loop.now + quiet
        case .holdGesture:
            gestureEnd?.invalidate()
            gestureEnd = nil
        case .endRun(let mode):
            // At once when it is the innermost run, else when the runs inside it (ended by the
            // effects before) have returned: see runNested(in:).
            if loop.currentMode == mode { loop.stop() }
        case .quit:
            laps?.write(state.allLapsCSV)
            laps = nil
            saveTimers(always: true)
            if innermostRunEnded { loop.stop() }
        case .openScreen(let strategy): lab.open(strategy)
        case .closeScreen(let strategy): lab.closeNewest(strategy)
        case .stopLeftBehind(let strategy): lab.stopLeftBehind(strategy)
        case .enterModal: runModal()
        case .makeModalCommon: loop.addCommonMode(.modal)
        case .time(let change):
            changeTime(change)
            if case .sleep(let length) = change {
                trace?.sleep(length, at: loop.now, since: startTime, depth: loop.nestingDepth)
            }
        case .traceWakeUp:
            if let trace, let reason = loop.lastWakeReason {
                trace.wakeUp(reason, mode: loop.currentMode, at: loop.now, since: startTime, depth: loop.nestingDepth)
            }
        case .refreshTimes(let interval, let tolerance):
            let refresh = Timer(fireAt: loop.now + interval, interval: interval, repeats: true) { [unowned self] _ in
                send(.tick)
            }
            refresh.tolerance = tolerance
            loop.add(refresh, forMode: .common)
            relativeTimesRefresh = refresh
        case .stopRefreshingTimes:
            relativeTimesRefresh?.invalidate()
            relativeTimesRefresh = nil
        case .render(let parts): invalidate(parts)
        case .renderRow(let id): invalidate([], row: id)
        case .addTimer(let id): timers[id] = makeTimer(for: state[id])
        case .deleteTimer(let id):
            let wallNow = loop.timeSource.now(.wall)
            if let deleted = state.lastDeleted?.row, deleted.id == id {
                let kept = SavedTimers.entry(of: deleted, now: loop.now, wallNow: wallNow) { [timers] in
                    timers[$0]?.nextFire
                }
                send(.deleted(id, kept: kept, wallNow: wallNow))
            }
            timers[id]?.invalidate()
            timers[id] = nil
        case .putBack(let id, let entry): send(.putBack(id, entry, wallNow: loop.timeSource.now(.wall)))
        case .ring: screen.ring()
        case .write(let export, let path, let text, let overwrite):
            write(export, text, to: path, overwrite: overwrite)
        case .stopwatch(let id, let action): send(.stopwatch(id, action, time: loop.now))
        case .report:
            let line = PlainNarration.report(snapshot())
            if let plainOutput { plainOutput(line) } else { send(.notice(line)) }
        case .endFlash(let id, let duration):
            // In the common modes, so a flash ends during a scroll too.
            let end = Timer(fireAt: loop.now + duration, interval: .zero, repeats: false) { [unowned self] _ in
                send(.flashEnded(id))
            }
            loop.add(end, forMode: .common)
        case .runHook(let id, let hook, let environment): hooks.run(hook, for: id, environment: environment)
        case .notify(let id, let notification):
            if let terminalNotification {
                screen.emit(terminalNotification.sequence(title: notification.title, body: notification.body))
            } else {
                let (hook, environment) = notification.hook(program: notifyProgram)
                notifier.run(hook, for: id, environment: environment)
            }
        case .playSound(let id):
            let (hook, environment) = EndSound.hook(players: soundPlayers)
            soundPlayer.run(hook, for: id, environment: environment)
        }
    }

    /// The adapter of row `id` with a capability only some have. The state asks only a row whose
    /// kind has it, so a row without it is a broken contract, not a key to ignore.
    private func timer<Adapter>(_ id: RowID, as _: Adapter.Type, _ asked: String) -> Adapter {
        guard let timer = timers[id] as? Adapter else {
            preconditionFailure("DashboardDriver: \(state[id].name) (\(state[id].mechanismName)) cannot be \(asked)")
        }
        return timer
    }

    /// Runs the loop re-entrantly in the tracking mode until the gesture ends (C-M11, seed M2).
    private func track(quiet: Duration?) {
        if let quiet {
            let end = Timer(fireAt: loop.now + quiet, interval: .zero, repeats: false) { [unowned self] _ in
                send(.gestureQuiet)
            }
            loop.add(end, forMode: .tracking)
            gestureEnd = end
        }
        runNested(in: .tracking)
        gestureEnd?.invalidate()
        gestureEnd = nil
    }

    /// Runs the loop re-entrantly in the custom mode until `M` again (C-M11): only what is in that
    /// mode runs — the input, and the common items once the mode is common (C-M5). A panel source
    /// that is never signalled keeps the mode from being empty, as a modal panel's event source does.
    private func runModal() {
        let panel = RunLoop.Source {}
        loop.add(panel, forMode: .modal)
        runNested(in: .modal)
        panel.invalidate()
    }

    /// Runs the loop re-entrantly in `mode` until ``Effect/endRun(_:)`` stops it, traced; then
    /// reports the return. When the run around it was ended meanwhile, that one is stopped now: it
    /// is the innermost again.
    private func runNested(in mode: RunLoop.Mode) {
        let depth = loop.nestingDepth + 1
        trace?.nestedRun(ended: false, mode: mode, at: loop.now, since: startTime, depth: depth)
        loop.run(mode: mode, until: .distantFuture)
        if innermostRunEnded { loop.stop() }
        trace?.nestedRun(ended: true, mode: mode, at: loop.now, since: startTime, depth: depth)
        send(.runEnded(mode))
    }

    /// Whether the innermost run the loop is in has been ended: a nested run the state no longer
    /// keeps, or the session's own run once quit. The runs are the loop's (``RunLoop/currentMode``)
    /// and the ones meant are the state's (``DashboardState/runs``): the driver keeps none.
    private var innermostRunEnded: Bool {
        guard let mode = loop.currentMode else { return false }
        guard NestedRun.modes.contains(mode) else { return state.quitRequested }
        return !state.runs.contains { $0.mode == mode }
    }

    /// Makes the current callback take `duration`: simulated on a virtual clock, really on the system clock.
    private func work(for duration: Duration) {
        if let clock = loop.timeSource.virtualClock {
            clock.busy(duration)
        } else {
            var request = Nanoseconds.timespec(duration.nanoseconds)
            nanosleep(&request, nil)
        }
    }
}
