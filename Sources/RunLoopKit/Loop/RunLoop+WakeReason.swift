extension RunLoop {
    /// Why the loop woke from its last sleep: what an ``Activity/afterWaiting`` observer reads in
    /// ``lastWakeReason``.
    public enum WakeReason: Sendable, Equatable, CaseIterable {
        /// A timer's deadline came.
        case timer
        /// A watched descriptor became readable.
        case input
        /// Another thread queued a block (`perform(inModes:)` through the handle) or an executor
        /// job (C-X1), or work arrived on the main queue that ``RunLoop/main`` drains (C-M12).
        case block
        /// A wake-up from another thread (``Handle/wakeUp()``, a stop, a marshalled request).
        case wakeUp
        /// The run's own time limit came.
        case timeout
    }

    /// Why the loop woke from its last sleep. Worked out only while a mode being run has an
    /// ``Activity/afterWaiting`` observer (nothing is spent otherwise), just before that observer
    /// is called; `nil` before the first such wake-up.
    public var lastWakeReason: WakeReason? { wakeReason }

    /// Why the wait that just ended ended, given the descriptors it found ready and the run's limit.
    func wakeReason(ready: [Int32], limit: Int64) -> WakeReason {
        if !ready.isEmpty { return .input }
        if waiter.mainQueueSignalled { return .block }
        if waiter.sawWakeUp { return shared.hasPendingPerform || handle.jobs.hasPendingJobs ? .block : .wakeUp }
        return now.nanoseconds >= limit ? .timeout : .timer
    }
}
