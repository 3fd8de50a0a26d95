/// What the RunLoopKitTesting library reads of a loop and asks of it, to drive virtual time and to
/// list what a mode holds: package API, so that the loop's own structures stay internal.
extension RunLoop {
    /// How long a wait on a ``VirtualClock`` waits for input in real time before it jumps to its
    /// deadline: zero (the default) jumps at once, `nil` never jumps.
    package var autojumpDelay: Duration? {
        get { waiter.autojumpDelay }
        set {
            checkThread("autojump")
            waiter.autojumpDelay = newValue
        }
    }

    /// The timers and sleepers of `mode` with their fire dates, in the order they fire (equal
    /// dates in the order they were added).
    package func timersInFiringOrder(inMode mode: Mode) -> [(timer: Timer, fireDate: Instant)] {
        guard let state = existingModeState(for: mode) else { return [] }
        var entries: [TimerQueue.Entry] = []
        state.timers.forEachEntry { entries.append($0) }
        entries.sort { $0.precedes($1) }
        return entries.map { ($0.timer.takeUnretainedValue(), Instant(nanoseconds: $0.deadline)) }
    }

    /// How many of the timers of `mode` are sleepers (`sleepers`) or plain timers; allocates nothing.
    package func timerCount(inMode mode: Mode, sleepers: Bool) -> Int {
        guard let state = existingModeState(for: mode) else { return 0 }
        var count = 0
        state.timers.forEachEntry { entry in
            if entry.timer._withUnsafeGuaranteedRef({ $0.isSleeper }) == sleepers { count += 1 }
        }
        return count
    }

    /// How many of the plain timers of `mode` are background timers (``Timer/isBackground``);
    /// allocates nothing.
    package func backgroundTimerCount(inMode mode: Mode) -> Int {
        guard let state = existingModeState(for: mode) else { return 0 }
        var count = 0
        state.timers.forEachEntry { entry in
            if entry.timer._withUnsafeGuaranteedRef({ $0.isBackground && !$0.isSleeper }) { count += 1 }
        }
        return count
    }

    /// The timeout sets of `mode` with a timeout scheduled, in the order they were made: how many
    /// timeouts each holds, and the first deadline.
    package func scheduledTimeoutSets(inMode mode: Mode) -> [(count: Int, nextDeadline: Instant)] {
        guard let state = existingModeState(for: mode) else { return [] }
        var sets: [(count: Int, nextDeadline: Instant)] = []
        state.forEachTimeoutSet { set in
            if let next = set.nextDeadline() { sets.append((set.count, Instant(nanoseconds: next))) }
        }
        return sets
    }

    /// How many valid sources `mode` holds.
    package func sourceCount(inMode mode: Mode) -> Int {
        existingModeState(for: mode)?.sources.count { $0.isValid } ?? 0
    }

    /// The file descriptors the descriptor sources of `mode` watch, in ascending order.
    package func watchedDescriptors(inMode mode: Mode) -> [Int32] {
        existingModeState(for: mode)?.descriptorSources.keys.sorted() ?? []
    }

    /// Whether a pass of `mode` now would do work: a timer due, a block, a signalled source or a job.
    package func hasWorkNow(inMode mode: Mode) -> Bool {
        nextWork(inMode: mode).map { $0 <= now } ?? false
    }

    /// When a pass of `mode` would next do work: now when one would now (a timer due, a block, a
    /// signalled source or a job), else the next fire date (C-R12), `nil` when nothing is due at
    /// all. One look tells a step of virtual time both whether to run a pass and where to move.
    package func nextWork(inMode mode: Mode) -> Instant? {
        drainInbox()
        return existingModeState(for: mode).flatMap(nextWork(in:))
    }

    /// Runs a pass of `mode` at each instant up to `limit` at which one would do work, in order:
    /// before each, `moveClock` brings the clock to that instant (when it is later than now) and
    /// `beforeEachPass`, given the time of the pass, may stop the steps by throwing. Each pass is
    /// a run of its own, a poll, as `run(mode: mode, until: .zero)` is. The steps of
    /// RunLoopKitTesting's `advance(to:inMode:)`: the mode's state is found once, not twice a step.
    package func runPasses<Failure: Error>(
        inMode mode: Mode, atEachDeadlineThrough limit: Instant, moveClock: (Instant) -> Void,
        beforeEachPass: (Instant) throws(Failure) -> Void
    ) throws(Failure) {
        precondition(isOnOwnerThread, threadMismatch("advance(to:inMode:)"))
        drainInbox()
        // A mode's state, once made, stays the loop's as long as the loop lives.
        guard mode != .common, let state = existingModeState(for: mode) else { return }
        while let next = nextWork(in: state), next <= limit {
            if next > now { moveClock(next) }
            try beforeEachPass(now)
            _ = run(in: state, until: 0, returnAfterSourceHandled: false)
            drainInbox()
        }
    }

    /// ``nextWork(inMode:)`` of the mode of `state`, with the inbox drained.
    private func nextWork(in state: ModeState) -> Instant? {
        let next = nextFireDate(in: state)
        let now = now
        if let next, next <= now { return now }
        if hasJobs(for: state) || hasBlocks(for: state)
            || (!state.sources.isEmpty && state.sources.contains { $0.isSignalled })
        {
            return now
        }
        return next
    }

    /// Whether input could still come in `mode`: it has a source or a descriptor source, or work
    /// outside the loop is under way (``Handle/beginExternalWork()``).
    package func mayReceiveInput(inMode mode: Mode) -> Bool {
        let state = modeState(for: mode)
        return !state.sources.isEmpty || !state.descriptorSources.isEmpty
            || shared.externalWork.load(ordering: .acquiring) > 0
    }

    /// Waits up to `duration` of real time for input or a wake-up in `mode`; returns whether any
    /// came. Readable descriptors stay readable for the next pass.
    package func awaitInput(inMode mode: Mode, forReal duration: Duration) -> Bool {
        waiter.awaitInput(in: modeState(for: mode), forReal: duration)
    }
}

extension RunLoop.Handle {
    /// Whether jobs wait for the loop's executors.
    package var hasPendingJobs: Bool { jobs.hasPendingJobs }

    /// Whether work outside the loop is under way (``beginExternalWork()``).
    package var hasExternalWork: Bool { shared.externalWork.load(ordering: .acquiring) > 0 }

    /// Whether `other` is a handle of the same loop.
    package func isHandle(ofSameLoopAs other: RunLoop.Handle) -> Bool {
        shared === other.shared
    }

    /// Queues `job`, a job the runtime gave its global executor, on the loop (rule C-X1), to run
    /// with `taskExecutor` as its task executor; wakes the loop.
    package func enqueueGlobalJob(_ job: UnownedJob, taskExecutor: any TaskExecutor) {
        jobs.add(job, isolated: false, taskExecutor: taskExecutor)
    }

    /// Runs `body` with the loop: at once on the loop's thread, and at the start of its next pass,
    /// waking it, from another thread.
    package func withLoopSoon(_ body: @escaping @Sendable (RunLoop) -> Void) {
        if isOnLoopThread {
            jobs.withLoop(body)
        } else {
            execute(wake: true, body)
        }
    }
}
