/// What a row is doing as the panels show it: its ``RunState`` seen from the mode the loop runs now.
enum DisplayState: Equatable, Sendable, CustomStringConvertible {
    case idle, running, suspended
    /// Scheduled, but not in the mode the loop runs now: it fires when that mode returns (M2).
    case waitingForMode
    case invalid

    var description: String {
        switch self {
        case .idle: "idle"
        case .running: "running"
        case .suspended: "suspended"
        case .waitingForMode: "waiting for mode"
        case .invalid: "invalid"
        }
    }

    /// The SMS panel's one word; nothing while simply running or idle.
    var shortText: String? {
        switch self {
        case .idle, .running: nil
        case .suspended: "paused"
        case .waitingForMode: "waiting"
        case .invalid: "invalid"
        }
    }
}
