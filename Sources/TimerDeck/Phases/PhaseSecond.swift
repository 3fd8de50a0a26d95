import RunLoopKit

/// What the run loop did in one second of its clock, counted by a ``PhaseMeter``.
struct PhaseSecond: Equatable, Sendable {
    /// Passes started (``RunLoop/Activity/beforeTimers``).
    var passes = 0
    /// Executor jobs run: actors bound to the loop and tasks that prefer it (C-X1).
    var jobs = 0
    /// The most executor jobs one pass ran (counted in the second its next phase began).
    var mostJobsInAPass = 0
    /// Why each sleep that ended (``RunLoop/Activity/afterWaiting``) ended, by ``RunLoop/WakeReason``.
    var wakes: [RunLoop.WakeReason: Int] = [:]
    /// Time spent asleep within the second.
    var asleep: Duration = .zero
    /// The deepest nesting of runs seen in the second (0: the loop did not run).
    var depth = 0
}
