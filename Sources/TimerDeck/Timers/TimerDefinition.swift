import RunLoopKit

/// A timer the user defines in a `[[timers]]` table of the config file: what drives it, how often,
/// in which mode and on which clock. The dashboard shows it as a row like the built-in ones.
///
/// ```toml
/// [[timers]]
/// name = "tea"
/// mechanism = "dispatch"
/// interval = "3m"
/// repeats = false
/// ```
package struct TimerDefinition: Equatable, Sendable {
    /// What drives a defined timer.
    package enum Kind: String, Equatable, Sendable, CaseIterable {
        /// A run loop ``Timer`` on the dashboard's loop, in ``TimerDefinition/mode`` (M1, C-T6).
        case runLoop = "runloop"
        /// A dispatch timer on a background queue whose events reach the dashboard's loop in its
        /// common modes (G1, C-G4, C-G10).
        case dispatch
        /// A dispatch timer on the main queue, drained by the main run loop in its common modes
        /// only: it waits while the loop runs a mode that is not common (C-M12).
        case mainQueue = "main-queue"
        /// A ``DisplayLink`` on the dashboard's loop, in ``TimerDefinition/mode``, calling back
        /// ``TimerDefinition/refreshRate`` times a second; only frames after a skip are logged (D3).
        case displayLink = "displaylink"
        /// An async task on the dashboard's loop that repeats a sleep in ``TimerDefinition/mode``
        /// on the loop's clock, each wake-up a fire (C-X1, C-X2).
        case task
        /// An alarm: one ring at ``TimerDefinition/firstFire``, a local time of day or date, whose
        /// deadline is an instant of the wall clock (decisions.md 9), kept across a sleep, a change
        /// of the clock and a change of the zone's offset; a dispatch timer on the wall clock.
        case alarm

        /// Whether a timer of this kind is scheduled in a run loop mode (a dispatch timer is not, G1).
        var hasModes: Bool { self != .dispatch && self != .mainQueue && self != .alarm }

        /// Whether its deadlines are on the loop's uptime clock only (a dispatch timer picks its clock).
        var isOnUptimeClock: Bool { self == .runLoop || self == .task }
    }

    /// What a row shows besides its fires in the log: the standard scene's panels are driven by
    /// timers defined like any other (Resources/timerdeck.toml lists them).
    package enum Drives: String, Equatable, Sendable, CaseIterable {
        /// Only the fire log and the inspector.
        case log
        /// An SMS resend button counting down ``TimerDefinition/countdownSeconds``, a second a fire (S1).
        case countdown
        /// The ripple animation, a frame per callback of a display link (S3).
        case ripple
        /// The upload pipeline's sampling job: a sample into the outbox a fire (S2).
        case samples
        /// The upload pipeline's upload job: the new samples out as one batch a fire (S2).
        case uploads
        /// A stopwatch with laps (`L`), shown in the SMS panel; its timer's fires refresh it.
        case stopwatch
    }

    /// Short unique name, shown in the inspector and the fire log.
    package var name = ""
    /// What drives it.
    package var kind: Kind = .runLoop
    /// Time between fires; for a one-shot timer, the time to its fire.
    package var interval: Duration = .seconds(1)
    /// A display link's refresh rate in Hz (other kinds have none).
    package var refreshRate = 60
    /// Whether it fires again after each interval (C-T5: a one-shot timer ends after its fire).
    package var repeats = true
    /// A run loop timer's tolerance or a dispatch timer's leeway (C-T9, C-G1).
    package var tolerance: Duration = .zero
    /// The mode a run loop timer is scheduled in; a dispatch timer has none (G1).
    package var mode: RunLoop.Mode = .default
    /// The clock its deadlines are on (decisions.md 9); a run loop timer is on the uptime clock.
    package var clock: ClockKind = .uptime
    /// When its first fire is due.
    package var firstFire: FirstFire = .afterInterval
    /// What its row shows besides the fire log.
    package var drives: Drives = .log
    /// The length of an SMS countdown in seconds (for ``Drives/countdown``).
    package var countdownSeconds = 60
    /// Whether an SMS countdown counts on past its end as `+01:23` instead of going back to `Send`.
    package var overtime = false
    /// Whether it starts with the dashboard (otherwise `s` starts it).
    package var startsAtLaunch = true
    /// The bell and the hook, and when they act.
    package var actions = TimerActions()

    /// Whether it ends after its first fire: a one-shot timer (C-T5) or an alarm.
    var isOneShot: Bool { !repeats || kind == .alarm }

    /// An empty definition; `name` must be set before it is valid.
    package init() {}
}
