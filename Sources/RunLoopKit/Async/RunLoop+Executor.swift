extension RunLoop {
    /// A run loop as the `SerialExecutor` of actors (swift-nio's `NIOSerialEventLoopExecutor`).
    ///
    /// An actor whose `unownedExecutor` is a loop's runs on the loop's thread, between timer
    /// callouts: its jobs run in the passes of the modes in ``RunLoop/executorModes`` (default: the
    /// common modes), in the order they were enqueued, and never inside another job (rule C-X1).
    /// Non-isolated async code runs on the loop through ``RunLoop/LoopTaskExecutor``.
    ///
    /// ```swift
    /// actor Counter {
    ///     nonisolated let unownedExecutor: UnownedSerialExecutor
    ///     var count = 0
    ///     init(loop: RunLoop.Handle) { unownedExecutor = loop.executor.asUnownedSerialExecutor() }
    ///     func increment() { count += 1 }   // on the loop's thread, between timer callouts
    /// }
    /// ```
    ///
    /// A loop must outlive every actor bound to it: `UnownedSerialExecutor` does not retain the
    /// executor. A job enqueued after its loop is gone stops the program with a message, in every
    /// build: the executors of a loop that went away (two small objects) are kept for that, so a
    /// stale executor never touches freed memory. Jobs still queued when the loop goes away — a task
    /// resumed or started on the loop that never got its turn — would never run: the program stops
    /// with a message saying how many, rather than leave their tasks waiting forever. Run the loop
    /// until its tasks and actors are done before letting it go.
    public final class Executor: SerialExecutor {
        let jobs: JobQueue

        init(jobs: JobQueue) {
            self.jobs = jobs
        }

        /// Queues an actor's job to run on the loop's thread (rule C-X1).
        public func enqueue(_ job: consuming ExecutorJob) {
            jobs.add(UnownedJob(job), isolated: true)
        }

        /// Stops the program unless the caller runs on the loop's thread, naming both threads.
        public func checkIsolated() {
            jobs.checkOnLoopThread("RunLoop.Executor.checkIsolated()")
        }

        /// Whether the caller runs on the loop's thread, which is what isolation to this executor means.
        public func isIsolatingCurrentContext() -> Bool? {
            jobs.isOnLoopThread
        }
    }

    /// A run loop as the `TaskExecutor` of tasks that prefer it: `Task(executorPreference:
    /// loop.taskExecutor)` and `withTaskExecutorPreference` run non-isolated async code on the loop's
    /// thread, under the same rule as actor jobs (C-X1). Sleeps on the loop from such a task are
    /// added to the loop at once, which is what makes a run on a ``VirtualClock`` deterministic.
    ///
    /// ```swift
    /// Task(executorPreference: loop.taskExecutor) {
    ///     try await handle.sleep(for: .seconds(1))
    ///     refresh()                                     // on the loop's thread
    /// }
    /// ```
    public final class LoopTaskExecutor: TaskExecutor {
        let jobs: JobQueue

        init(jobs: JobQueue) {
            self.jobs = jobs
        }

        /// Queues a task's job to run on the loop's thread (rule C-X1).
        public func enqueue(_ job: consuming ExecutorJob) {
            jobs.add(UnownedJob(job), isolated: false)
        }
    }
}
