/// The SMS "resend" button of seed scene S1, as a value: `Send`, then `Resend (60)` … `Resend (01)`.
///
/// The button is disabled while counting and a press while counting is ignored, so a second timer
/// is never started (S1). It shows the full count at the press (decisions.md 12).
///
/// ```swift
/// var button = Countdown(seconds: 60)
/// button.press()          // "Resend (60)"
/// button.tick()           // "Resend (59)"
/// ```
///
/// With ``overtime`` it does not go back to `Send` at its end: it goes on counting the seconds
/// since, `+00:00`, `+00:01` … `+1:00:00`, until a press or `s` ends it.
struct Countdown: Equatable, Sendable {
    /// Where the button is.
    enum State: Equatable, Sendable {
        /// Showing `Send`, enabled.
        case idle
        /// Counting down, disabled; `remaining` seconds are shown.
        case counting(remaining: Int)
        /// Past its end, counting up, disabled; `seconds` since the end are shown.
        case overtime(seconds: Int)
    }

    /// The length of a countdown in seconds.
    let seconds: Int
    /// Whether it counts on past its end instead of going back to `Send`.
    let overtime: Bool
    /// The current state.
    private(set) var state: State = .idle

    /// Creates an idle button that counts down from `seconds`, and on past its end with `overtime`.
    init(seconds: Int, overtime: Bool = false) {
        self.seconds = seconds
        self.overtime = overtime
    }

    /// The text on the button.
    var label: String {
        switch state {
        case .idle: return "Send"
        case .counting(let remaining):
            let digits = String(remaining)
            return "Resend (\(digits.count < 2 ? "0" + digits : digits))"
        case .overtime(let seconds): return "+" + Self.clock(seconds)
        }
    }

    /// The most cells ``label`` takes while counting: `Resend (180)` for three minutes.
    var widestCountingLabel: Int { "Resend (\(max(seconds, 10)))".count }

    /// `01:23` for 83 seconds, `1:00:00` from an hour on.
    private static func clock(_ seconds: Int) -> String {
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let minutes = "\(twoDigits(seconds / 60 % 60)):\(twoDigits(seconds % 60))"
        return seconds < 3_600 ? minutes : "\(seconds / 3_600):" + minutes
    }

    /// The seconds left while it counts down (zero or less in overtime: minus the seconds past
    /// its end); `nil` while idle.
    var secondsLeft: Int? {
        switch state {
        case .idle: nil
        case .counting(let remaining): remaining
        case .overtime(let seconds): -seconds
        }
    }

    /// Seconds it had counted before its timer started: a countdown restored after a restart
    /// goes on from where it was, so a deadline-driven one counts its grid from there.
    private(set) var counted = 0

    /// Starts counting (or counting on past its end) with `remaining` seconds left, as a
    /// countdown restored after a restart.
    mutating func resume(remaining: Int) {
        state = .counting(remaining: seconds)
        counted = seconds - min(remaining, seconds)
        show(remaining: remaining)
    }

    /// Whether it is past its end, counting up.
    var isOvertime: Bool {
        guard case .overtime = state else { return false }
        return true
    }

    /// Whether the button takes a press.
    var isEnabled: Bool { state == .idle }

    /// Starts counting if idle; returns `false` (and changes nothing) while counting.
    @discardableResult
    mutating func press() -> Bool {
        guard state == .idle else { return false }
        state = .counting(remaining: seconds)
        counted = 0
        return true
    }

    /// One second has passed on the counting timer: counts down, back to idle after the last second
    /// (or to `+00:00` with ``overtime``), and up in overtime.
    mutating func tick() {
        switch state {
        case .idle: break
        case .counting(let remaining): show(remaining: remaining - 1)
        case .overtime(let seconds): state = .overtime(seconds: seconds + 1)
        }
    }

    /// Sets the count from a deadline: `remaining` whole seconds left (rounded up); idle at zero, or
    /// with ``overtime`` the seconds past it.
    mutating func show(remaining: Int) {
        guard state != .idle else { return }
        if remaining > 0 {
            state = .counting(remaining: min(remaining, seconds))
        } else {
            state = overtime ? .overtime(seconds: -remaining) : .idle
        }
    }

    /// Stops counting and re-enables the button.
    mutating func cancel() {
        state = .idle
    }
}
