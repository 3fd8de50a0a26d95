import RunLoopKit
import Uploads

/// What a row is, with the state only that kind of row has: one case per kind. Fixed for the row,
/// but for that state (a button's count, the ticker's settings, a mode).
enum RowKind: Equatable, Sendable {
    /// An SMS resend button (S1) that counts down a second a fire of its timer.
    case countdown(Countdown, TimerMechanism)
    /// The ripple's display link (S3) at `refreshRate` Hz in `mode`, with the settings `[` `]`,
    /// `+`, `-` and `l` change.
    case ripple(TickerSettings, refreshRate: Int, mode: RunLoop.Mode)
    /// A timer of the fire log, by its mechanism.
    case timer(TimerMechanism)
    /// A stopwatch with laps, its display refreshed by its timer's fires (which are not logged).
    case stopwatch(Stopwatch, TimerMechanism)
    /// One of the upload pipeline's two jobs, a run loop timer the pipeline owns (S2), in `mode`.
    case uploadJob(UploadPipeline.Job, interval: Duration, mode: RunLoop.Mode)

    /// The kind of row `timer` defines.
    init(_ timer: TimerDefinition) {
        switch timer.drives {
        case .countdown:
            self = .countdown(
                Countdown(seconds: timer.countdownSeconds, overtime: timer.overtime), TimerMechanism(timer))
        case .ripple: self = .ripple(TickerSettings(), refreshRate: timer.refreshRate, mode: timer.mode)
        case .samples: self = .uploadJob(.sample, interval: timer.interval, mode: timer.mode)
        case .uploads: self = .uploadJob(.upload, interval: timer.interval, mode: timer.mode)
        case .log: self = .timer(TimerMechanism(timer))
        case .stopwatch: self = .stopwatch(Stopwatch(), TimerMechanism(timer))
        }
    }

    /// The mode its timer is scheduled in; `nil` for a mode-independent timer (a dispatch timer,
    /// G1). Setting it on one does nothing.
    var mode: RunLoop.Mode? {
        get {
            switch self {
            case .countdown(_, let mechanism), .timer(let mechanism), .stopwatch(_, let mechanism): mechanism.mode
            case .ripple(_, _, let mode), .uploadJob(_, _, let mode): mode
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .countdown(let button, var mechanism):
                mechanism.mode = newValue
                self = .countdown(button, mechanism)
            case .timer(var mechanism):
                mechanism.mode = newValue
                self = .timer(mechanism)
            case .stopwatch(let watch, var mechanism):
                mechanism.mode = newValue
                self = .stopwatch(watch, mechanism)
            case .ripple(let settings, let refreshRate, _):
                self = .ripple(settings, refreshRate: refreshRate, mode: newValue)
            case .uploadJob(let job, let interval, _): self = .uploadJob(job, interval: interval, mode: newValue)
            }
        }
    }

    /// Why `f` cannot fire a row of this kind by hand (T2), or `nil` when it can. The ripple cannot:
    /// `f` draws its next frame instead, in the state alone.
    var lackOfFireByHand: String? {
        switch self {
        case .countdown(_, let mechanism), .timer(let mechanism): mechanism.lackOfFireByHand
        case .stopwatch: "a stopwatch's timer only refreshes its display: L takes a lap"
        case .ripple: TimerMechanism.framesOnly
        case .uploadJob: nil
        }
    }

    /// Why `m` cannot move a row of this kind to another mode, or `nil` when it can (then it has a
    /// ``mode``).
    var lackOfModes: String? {
        switch self {
        case .countdown(_, let mechanism), .timer(let mechanism), .stopwatch(_, let mechanism): mechanism.lackOfModes
        case .ripple, .uploadJob: nil
        }
    }

    /// The SMS button, for a countdown row; setting it on another kind does nothing.
    var button: Countdown? {
        get {
            guard case .countdown(let button, _) = self else { return nil }
            return button
        }
        set {
            guard case .countdown(_, let mechanism) = self, let newValue else { return }
            self = .countdown(newValue, mechanism)
        }
    }

    /// The ripple's settings, for the ripple row; setting them on another kind does nothing.
    var ticker: TickerSettings? {
        get {
            guard case .ripple(let settings, _, _) = self else { return nil }
            return settings
        }
        set {
            guard case .ripple(_, let refreshRate, let mode) = self, let newValue else { return }
            self = .ripple(newValue, refreshRate: refreshRate, mode: mode)
        }
    }

    /// The stopwatch, for a stopwatch row; setting it on another kind does nothing.
    var stopwatch: Stopwatch? {
        get {
            guard case .stopwatch(let watch, _) = self else { return nil }
            return watch
        }
        set {
            guard case .stopwatch(_, let mechanism) = self, let newValue else { return }
            self = .stopwatch(newValue, mechanism)
        }
    }

    /// Whether it is an alarm, due at a local time on the wall clock.
    var isAlarm: Bool { self == .timer(.alarm) }

    /// The upload job, for an upload row.
    var uploadJob: UploadPipeline.Job? {
        guard case .uploadJob(let job, _, _) = self else { return nil }
        return job
    }

    /// The mechanism as a hook's environment names it: "runloop", "dispatch", "main-queue",
    /// "displaylink", "upload".
    var mechanismName: String {
        switch self {
        case .countdown(_, let mechanism), .timer(let mechanism), .stopwatch(_, let mechanism): mechanism.name
        case .ripple: TimerDefinition.Kind.displayLink.rawValue
        case .uploadJob: "upload"
        }
    }
}
