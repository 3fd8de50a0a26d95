import KeptTimers
import RunLoopKit
import Uploads

/// Everything about one timer row: what it is (from the scene) and what it is doing. The single
/// source of truth for the row; panels draw it and the driver makes the real timer follow it.
struct RowState: Equatable, Sendable {
    /// Its place in the scene.
    let id: RowID
    /// The timer as the config (or the add-timer prompt) defined it.
    let definition: TimerDefinition
    /// What kind of row it is, with that kind's own state.
    var kind: RowKind
    /// Scheduled, held, invalid or idle.
    var run: RunState = .idle {
        didSet { if !run.isScheduled { keptDeadline = nil } }
    }
    /// The wall-clock instant a timer put back — after a restart, or by `u` — is next due at, while
    /// it is scheduled: an alarm's ringing, a countdown's next second. A restart in another time
    /// zone keeps an alarm's instant; its local time is only how it is shown. `nil` for a timer
    /// started here, which is due as its definition says (an alarm at the next instant of its local
    /// time).
    var keptDeadline: Instant?

    /// The time from a start at wall-clock time `wallNow` to the first fire: to ``keptDeadline``,
    /// or as the definition says.
    func firstFireDelay(wallNow: Instant) -> Duration {
        if let keptDeadline { return max(wallNow.duration(to: keptDeadline), .zero) }
        return definition.firstFire.delay(interval: definition.interval, wallNow: wallNow)
    }

    /// When its alarm rings as the local clock shows it: the kept instant in the time zone now, or
    /// the local time it was defined with.
    var alarmTime: TimerDefinition.FirstFire {
        guard let keptDeadline, let local = LocalDateTime(localTimeOf: keptDeadline) else {
            return definition.firstFire
        }
        if case .on = definition.firstFire { return .on(local) }
        return .at(local.time)
    }
    /// How late its last scheduled fire was.
    var lastLateness: Duration?
    /// Ticks skipped or coalesced so far (C-T6, D3).
    var missedTicks = 0
    /// Its bell and hook, and when they act.
    let actions: TimerActions
    /// Whether it is flashing (its action), until ``Event/flashEnded(_:)``.
    var isFlashing = false
    /// While its hook runs, the mode of the fire that started it (`.some(nil)` for a fire outside
    /// the loop's modes); `nil` while no hook runs.
    var runningHookMode: RunLoop.Mode?? = nil
    /// Whether its hook is running (a hook never runs twice at once for one timer).
    var isHookRunning: Bool { runningHookMode != nil }

    /// The row of `definition` before anything ran.
    init(_ definition: TimerDefinition, id: RowID) {
        self.id = id
        self.definition = definition
        kind = RowKind(definition)
        actions = definition.actions
    }

    /// Short unique name, shown in the inspector and the fire log.
    var name: String { definition.name }
    /// Whether it starts with the dashboard (the ticker, the upload jobs) or waits for a key.
    var startsAtLaunch: Bool { definition.startsAtLaunch }

    /// The mode it is scheduled in; `nil` for a mode-independent timer (a dispatch timer, G1).
    var mode: RunLoop.Mode? {
        get { kind.mode }
        set { kind.mode = newValue }
    }
    /// The SMS resend button it drives, if it is an SMS row (S1).
    var button: Countdown? {
        get { kind.button }
        set { kind.button = newValue }
    }
    /// The display link's settings, if it is the ticker.
    var ticker: TickerSettings? {
        get { kind.ticker }
        set { kind.ticker = newValue }
    }
    /// The stopwatch, if it is a stopwatch row.
    var stopwatch: Stopwatch? {
        get { kind.stopwatch }
        set { kind.stopwatch = newValue }
    }
    /// The upload job the row stands for, if any.
    var uploadJob: UploadPipeline.Job? { kind.uploadJob }

    /// The mechanism and its settings as the inspector shows them: "RunLoop Timer 1s".
    var mechanismText: String { mechanismText(short: false) }

    /// ``mechanismText`` and its short form for a narrow column: "RunLoop Timer 1s", "Timer 1s".
    var mechanismForms: [String] { [mechanismText(short: false), mechanismText(short: true)] }

    private func mechanismText(short: Bool) -> String {
        switch kind {
        case .uploadJob(_, let interval, _): (short ? "Timer " : "RunLoop Timer ") + DurationText.setting(interval)
        case .ripple(let ticker, let refreshRate, _):
            (short ? "Link" : "DisplayLink") + " \(refreshRate)/\(ticker.frameInterval)"
                + (ticker.isSlow ? " slow" : "")
        case .countdown(_, let mechanism), .timer(let mechanism), .stopwatch(_, let mechanism):
            mechanism.text(definition, short: short)
        }
    }

    /// The mechanism as a hook's environment names it (``RowKind/mechanismName``).
    var mechanismName: String { kind.mechanismName }

    /// The mechanism in a word or two, for the SMS panel: "Timer", "GCD", "GCD main" (main queue).
    var kindText: String {
        switch kind {
        case .countdown(_, let mechanism), .timer(let mechanism), .stopwatch(_, let mechanism): mechanism.shortText
        case .ripple, .uploadJob: "Timer"
        }
    }

    /// What the row shows while the loop runs `currentMode` whose common set is `commonModes`:
    /// a running timer whose mode is not running is waiting for it (M2).
    func displayState(inMode currentMode: RunLoop.Mode?, commonModes: [RunLoop.Mode]) -> DisplayState {
        switch run {
        case .idle: return .idle
        case .suspended: return .suspended
        case .invalid: return .invalid
        case .running:
            guard let mode, let currentMode else { return .running }
            let active = mode == currentMode || (mode == .common && commonModes.contains(currentMode))
            return active ? .running : .waitingForMode
        }
    }
}
