import RunLoopKit

/// A ``PhaseMeter``'s counts as the phases view draws them.
struct PhaseReading: Equatable, Sendable {
    /// The activity reported last.
    var phase: RunLoop.Activity?
    /// The number (seconds since the dashboard started) of the first of ``seconds``.
    var firstSecond: Int
    /// The complete seconds, oldest first.
    var seconds: [PhaseSecond]
    /// The second in progress.
    var current: PhaseSecond
}
