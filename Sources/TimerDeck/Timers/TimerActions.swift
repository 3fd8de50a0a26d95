/// What a timer does besides its fire-log entry: ring the terminal bell, flash its row, show a
/// desktop notification, play a sound and/or run a hook command,
/// at every fire or when it ends (a one-shot timer's fire, an SMS countdown reaching Send).
package struct TimerActions: Equatable, Sendable {
    /// When a timer's actions run.
    package enum ActsOn: String, Equatable, Sendable, CaseIterable {
        /// At every scheduled fire.
        case fire
        /// When the timer ends: the fire of a one-shot timer (C-T5), an SMS countdown's last second (S1).
        case end
    }

    /// Whether the terminal bell rings.
    package var bell = false
    /// Whether its row flashes (is drawn highlighted for ``flashLength``).
    package var flash = false
    /// Whether a desktop notification names it (``DesktopNotification``).
    package var notify = false
    /// Whether a short sound plays through the first audio player installed (``EndSound``).
    package var sound = false
    /// A shell command run off the loop's thread; `nil` for none.
    package var hook: String?
    /// How long the hook may run before it is stopped.
    package var hookLimit: Duration = .seconds(10)
    /// When the bell and the hook act.
    package var actsOn: ActsOn = .fire

    /// No bell, no hook.
    package init() {}

    /// An alarm and a countdown are heard and seen at their end: the bell, the flash and the
    /// notification act then, unless the table set them (its `keys`).
    mutating func alertByDefault(for timer: TimerDefinition, except keys: Set<String>) {
        guard timer.kind == .alarm || timer.drives == .countdown else { return }
        if !keys.contains("bell") { bell = true }
        if !keys.contains("flash") { flash = true }
        if !keys.contains("notify") { notify = true }
        if !keys.contains("act_on") { actsOn = .end }
    }

    /// The actions that are on or off, by their field names: the `a` form turns each on by its name
    /// and all off with `quiet`.
    static let switches = ["bell", "flash", "notify", "sound"]

    /// How long a flash lasts.
    static let flashLength: Duration = .milliseconds(500)
    /// What a hook field accepts, as the error messages say it.
    static let hookRule = "\"\" or a shell command (run by /bin/sh -c)"
    /// The time limits a hook accepts.
    static let hookLimitRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(600)
}
