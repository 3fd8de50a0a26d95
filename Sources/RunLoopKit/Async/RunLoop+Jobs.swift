/// Executor jobs in the loop's passes (rule C-X1): which modes run them, and running them.
extension RunLoop {
    /// The modes whose passes run executor jobs: actors bound to ``executor`` and tasks that prefer
    /// it (rule C-X1). By default ``Mode/common``, the loop's common modes, as CoreFoundation
    /// drains the main queue (C-M12): jobs go on while the loop tracks and wait while it runs a
    /// mode that is not common (a modal), then run when it is back. Name other modes to make jobs
    /// wait in them too, or add a modal mode to let jobs run during it.
    public var executorModes: [Mode] {
        get { jobModes }
        set {
            checkThread("executorModes")
            jobModes = newValue
        }
    }

    /// How many executor jobs the loop has run so far. A pass observer that reads it at each
    /// ``Activity/beforeTimers`` gets the jobs run per pass.
    public var executorJobsRun: Int { jobsRun }

    /// Whether the calling thread is the loop's (``Handle/isOnLoopThread``).
    package var isOnLoopThread: Bool { isOnOwnerThread }

    /// Stops the program, in release builds too, unless the calling thread is the loop's, with a
    /// message naming `call` and both threads.
    package func preconditionOnLoopThread(_ call: String) {
        precondition(isOnOwnerThread, threadMismatch(call))
    }

    /// Whether `state`'s passes run jobs now: it is one of ``executorModes`` and no job is running.
    func runsJobs(in state: ModeState) -> Bool {
        !isRunningJobs && matches(jobModes, state)
    }

    /// Whether jobs wait that a pass of `state` would run: the pass must not sleep. Inline, as is
    /// the look of ``runJobs(in:)``: a pass looks twice, and most find none.
    @inline(__always)
    func hasJobs(for state: ModeState) -> Bool {
        (nextTakenJob < takenJobs.count || handle.jobs.hasPendingJobs) && runsJobs(in: state)
    }

    /// Runs the waiting jobs oldest first, then those they enqueued, until none is left or
    /// ``jobBatchLimit`` have run; the rest wait for the next pass, which does not sleep (C-X1).
    /// A chain of hops (a task calling an actor of the loop, and back) thus costs no pass per hop,
    /// and due timers wait for at most one batch: the limit counts jobs, not takes from the queue,
    /// so a take of many jobs (a burst of task starts) is run over several passes.
    @inline(__always)
    func runJobs(in state: ModeState) {
        if hasJobs(for: state) { runWaitingJobs(in: state) }
    }

    private func runWaitingJobs(in state: ModeState) {
        isRunningJobs = true
        let serial = executor.asUnownedSerialExecutor()
        let task = taskExecutor.asUnownedTaskExecutor()
        var ran = 0
        while ran < Self.jobBatchLimit {
            if nextTakenJob == takenJobs.count {
                guard handle.jobs.hasPendingJobs else { break }
                // What other threads posted before these jobs were queued is handled first: a
                // sleeper cancelled from another thread has its timer gone before its task resumes.
                drainInbox()
                takenJobs.removeAll(keepingCapacity: true)
                nextTakenJob = 0
                handle.jobs.take(into: &takenJobs)  // not empty: only the loop takes jobs
            }
            let job = takenJobs[nextTakenJob]
            nextTakenJob += 1
            if job.isolated {
                job.job.runSynchronously(on: serial)
            } else {
                job.job.runSynchronously(on: job.taskExecutor?.asUnownedTaskExecutor() ?? task)
            }
            ran += 1
        }
        if nextTakenJob == takenJobs.count {
            takenJobs.removeAll(keepingCapacity: true)
            nextTakenJob = 0
        }
        jobsRun += ran
        isRunningJobs = false
    }

    /// The most jobs one pass runs before due timers get their turn again.
    static let jobBatchLimit = 1_024
}
