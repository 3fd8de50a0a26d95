/// What a timer does besides its fire-log entry: ring the terminal bell and/or run a hook command,
/// at every fire or when it ends (a one-shot timer's fire, an SMS countdown reaching Send).
public struct TimerActions: Equatable, Sendable {
    /// When a timer's actions run.
    public enum ActsOn: String, Equatable, Sendable, CaseIterable {
        /// At every scheduled fire.
        case fire
        /// When the timer ends: the fire of a one-shot timer (C-T5), an SMS countdown's last second (S1).
        case end
    }

    /// Whether the terminal bell rings.
    public var bell = false
    /// Whether its row flashes (is drawn highlighted for ``flashLength``).
    public var flash = false
    /// A shell command run off the loop's thread; `nil` for none.
    public var hook: String?
    /// How long the hook may run before it is stopped.
    public var hookLimit: Duration = .seconds(10)
    /// When the bell and the hook act.
    public var actsOn: ActsOn = .fire

    /// No bell, no hook.
    public init() {}

    /// How long a flash lasts.
    static let flashLength: Duration = .milliseconds(500)
    /// What a hook field accepts, as the error messages say it.
    static let hookRule = "\"\" or a shell command (run by /bin/sh -c)"
    /// The time limits a hook accepts.
    static let hookLimitRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(600)
}
