/// What a file the user names receives: every timer as config (`W`), or a stopwatch's laps as
/// CSV (`E`).
enum Export: Equatable, Sendable {
    case timers
    /// The laps of the stopwatch row `id`, named `name`.
    case laps(RowID, name: String)

    /// What it is, as the status bar says it: "the timers", "the laps of sw".
    var what: String {
        switch self {
        case .timers: "the timers"
        case .laps(_, let name): "the laps of \(name)"
        }
    }

    /// The key that asks for a file again.
    var key: String {
        switch self {
        case .timers: "W"
        case .laps: "E"
        }
    }
}
