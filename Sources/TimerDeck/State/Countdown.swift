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
struct Countdown: Equatable, Sendable {
    /// Where the button is.
    enum State: Equatable, Sendable {
        /// Showing `Send`, enabled.
        case idle
        /// Counting down, disabled; `remaining` seconds are shown.
        case counting(remaining: Int)
    }

    /// The length of a countdown in seconds.
    let seconds: Int
    /// The current state.
    private(set) var state: State = .idle

    /// Creates an idle button that counts down from `seconds`.
    init(seconds: Int) {
        self.seconds = seconds
    }

    /// The text on the button.
    var label: String {
        switch state {
        case .idle: return "Send"
        case .counting(let remaining):
            let digits = String(remaining)
            return "Resend (\(digits.count < 2 ? "0" + digits : digits))"
        }
    }

    /// Whether the button takes a press.
    var isEnabled: Bool { state == .idle }

    /// Starts counting if idle; returns `false` (and changes nothing) while counting.
    @discardableResult
    mutating func press() -> Bool {
        guard state == .idle else { return false }
        state = .counting(remaining: seconds)
        return true
    }

    /// One second has passed on the counting timer: counts down, back to idle after the last second.
    mutating func tick() {
        guard case .counting(let remaining) = state else { return }
        state = remaining > 1 ? .counting(remaining: remaining - 1) : .idle
    }

    /// Sets the count from a deadline: `remaining` whole seconds left (rounded up); idle at zero.
    mutating func show(remaining: Int) {
        guard case .counting = state else { return }
        state = remaining > 0 ? .counting(remaining: min(remaining, seconds)) : .idle
    }

    /// Stops counting and re-enables the button.
    mutating func cancel() {
        state = .idle
    }
}
