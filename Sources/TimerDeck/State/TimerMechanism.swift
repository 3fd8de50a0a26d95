import KeptTimers
import RunLoopKit

/// The mechanism behind a timer the user defined (a `[[timers]]` table, `a`), with the state only
/// that mechanism has: a mode for what lives in run loop modes, none for a dispatch timer (G1).
/// A new mechanism is a case here, its adapter and its config value.
enum TimerMechanism: Equatable, Sendable {
    /// A run loop timer scheduled in `mode`.
    case runLoop(mode: RunLoop.Mode)
    /// A dispatch timer on `queue`, whose events reach the loop in its common modes (G1, C-G10).
    case dispatch(queue: DispatchQueueChoice)
    /// A display link at `refreshRate` Hz in `mode`.
    case displayLink(refreshRate: Int, mode: RunLoop.Mode)
    /// An async task on the loop whose sleeps are one-shot timers in `mode` (C-X2).
    case task(mode: RunLoop.Mode)
    /// An alarm: a one-shot dispatch timer on the wall clock, due at a local time (decisions.md 9).
    case alarm

    /// The mechanism `timer` defines, in the mode it names.
    init(_ timer: TimerDefinition) {
        switch timer.kind {
        case .runLoop: self = .runLoop(mode: timer.mode)
        case .dispatch: self = .dispatch(queue: .background)
        case .mainQueue: self = .dispatch(queue: .main)
        case .displayLink: self = .displayLink(refreshRate: timer.refreshRate, mode: timer.mode)
        case .task: self = .task(mode: timer.mode)
        case .alarm: self = .alarm
        }
    }

    /// The mode it is scheduled in; `nil` for a mode-independent timer. Setting it on one does nothing.
    var mode: RunLoop.Mode? {
        get {
            switch self {
            case .runLoop(let mode), .displayLink(_, let mode), .task(let mode): mode
            case .dispatch, .alarm: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .runLoop: self = .runLoop(mode: newValue)
            case .displayLink(let refreshRate, _): self = .displayLink(refreshRate: refreshRate, mode: newValue)
            case .task: self = .task(mode: newValue)
            case .dispatch, .alarm: break
            }
        }
    }

    /// Why `f` cannot fire it by hand, outside its schedule (T2), or `nil` when it can: a display
    /// link calls back only with a frame of the display (D3). Its adapter has the call exactly when
    /// this is `nil` (``FirableRowTimer``).
    var lackOfFireByHand: String? {
        switch self {
        case .displayLink: Self.framesOnly
        case .runLoop, .dispatch, .task, .alarm: nil
        }
    }

    /// Why a display link, the ripple's included, cannot fire by hand.
    static let framesOnly = "a display link has no fire by hand: it calls back only with a frame (D3)"

    /// Why `m` cannot move it to another mode, or `nil` when it can: a dispatch timer lives in no
    /// run loop mode (G1). Its adapter has the call exactly when this is `nil` (``MovableRowTimer``).
    var lackOfModes: String? {
        switch self {
        case .dispatch: "a dispatch timer has no run loop mode: its events reach the loop in any mode (G1)"
        case .alarm: "an alarm has no run loop mode: it rings at its time on the wall clock, in any mode"
        case .runLoop, .displayLink, .task: nil
        }
    }

    /// How the inspector names it with `timer`'s settings: "RunLoop Timer 1s", "DispatchTimer 1s main queue",
    /// "Task sleep 1s", "Alarm 14:30 wall clock"; `short`: "Timer 1s", "GCD 1s main", "Task 1s", "Alarm 14:30",
    /// for a narrow column. An alarm names its clock, the wall clock, unlike the uptime timers beside it.
    func text(_ timer: TimerDefinition, short: Bool = false) -> String {
        let once = timer.repeats ? "" : " once"
        let interval = DurationText.setting(timer.interval)
        switch self {
        case .runLoop: return (short ? "Timer " : "RunLoop Timer ") + interval + once
        case .dispatch(let queue):
            let main = queue == .main ? (short ? " main" : " main queue") : ""
            return (short ? "GCD " : "DispatchTimer ") + interval + main + once
        case .displayLink(let refreshRate, _): return (short ? "Link" : "DisplayLink") + " \(refreshRate)/1"
        case .task: return (short ? "Task " : "Task sleep ") + interval + once
        case .alarm: return "Alarm \(timer.firstFire.text)" + (short ? "" : " wall clock")
        }
    }

    /// Its config value, as a hook's environment names it: "runloop", "dispatch", "main-queue", "displaylink",
    /// "task".
    var name: String {
        switch self {
        case .runLoop: TimerDefinition.Kind.runLoop.rawValue
        case .dispatch(.main): TimerDefinition.Kind.mainQueue.rawValue
        case .dispatch: TimerDefinition.Kind.dispatch.rawValue
        case .displayLink: TimerDefinition.Kind.displayLink.rawValue
        case .task: TimerDefinition.Kind.task.rawValue
        case .alarm: TimerDefinition.Kind.alarm.rawValue
        }
    }

    /// The mechanism in a word or two, for the SMS panel: "Timer", "GCD", "GCD main" (main queue), "Task".
    var shortText: String {
        switch self {
        case .dispatch(.main): "GCD main"
        case .dispatch: "GCD"
        case .task: "Task"
        case .alarm: "Alarm"
        case .runLoop, .displayLink: "Timer"
        }
    }
}
