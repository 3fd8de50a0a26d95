/// Where the time-control keys left the dashboard's clock: paused or not, and the rate. The state
/// is its home; the driver makes the clock (a RunLoopKit `TimeControl`) follow it, as it makes the
/// timers follow their rows.
struct TimeStatus: Equatable, Sendable {
    /// Whether `space` (or `.`) paused it.
    var isPaused = false
    /// The slow-motion rate `<` and `>` chose.
    var rate: TimeRate = .normal
}
