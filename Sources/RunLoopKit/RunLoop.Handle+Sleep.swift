extension RunLoop.Handle {
    /// Suspends the calling task until `deadline` on the loop's uptime clock: a one-shot timer in the
    /// loop's heap, in `modes` (default: the loop's common modes), with `tolerance` (C-T9) — rule C-X2.
    ///
    /// Like a ``Timer`` in those modes it waits while the loop runs another mode: a sleep in
    /// `[.default]` pauses while the loop tracks (seed M2). On a ``VirtualClock`` or a
    /// ``TimeControl`` it follows the loop's clock: sleepers resume in deadline order, equal
    /// deadlines in the order they slept (C-T3), and pausing, stepping or slowing the clock applies
    /// to them. Cancelling the task invalidates the timer and resumes it at once with
    /// `CancellationError`. An empty `modes` sleeps until cancelled.
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`). Called on the loop's thread — by
    /// a task that prefers its ``taskExecutor``, or by an actor bound to its ``executor``, even in a
    /// task with no executor preference — the timer is added at once, with no system call, and the
    /// task resumes on the loop's thread, in the pass of the timer that woke it: on a virtual clock
    /// the run repeats exactly. From another thread the timer is added at the loop's next pass.
    ///
    /// ```swift
    /// let handle = loop.handle
    /// Task(executorPreference: handle.taskExecutor) {
    ///     try await handle.sleep(for: .seconds(1), inModes: [.default])   // pauses while scrolling
    /// }
    /// ```
    nonisolated(nonsending) public func sleep(
        until deadline: Instant, tolerance: Duration? = nil, inModes modes: [RunLoop.Mode] = [.common]
    ) async throws {
        try await sleep(until: deadline, tolerance: tolerance, inModes: modes, isolation: #isolation)
    }

    /// The sleep on the caller's `isolation`. On the loop's thread the task prefers the loop's task
    /// executor while it sleeps, unless it already does: a continuation resumes its task on the
    /// task's executor before the task returns to `isolation`, and without a preference that
    /// executor is the global one — the loop could move its clock on while an actor of the loop
    /// waits for its turn there.
    private func sleep(
        until deadline: Instant, tolerance: Duration?, inModes modes: [RunLoop.Mode],
        isolation: isolated (any Actor)?
    ) async throws {
        guard isOnLoopThread, !currentTaskPrefersLoop else {
            return try await suspend(until: deadline, tolerance: tolerance, inModes: modes, isolation: isolation)
        }
        try await withTaskExecutorPreference(taskExecutor, isolation: isolation) {
            try await suspend(until: deadline, tolerance: tolerance, inModes: modes, isolation: isolation)
        }
    }

    /// Suspends on a ``Sleeper`` whose timer is added on the loop's thread: at once when `isolation`
    /// runs there, else at the loop's next pass. The closures capture `isolation`, so they run on
    /// it (a closure in a `nonisolated(nonsending)` function would run on the task's executor).
    private func suspend(
        until deadline: Instant, tolerance: Duration?, inModes modes: [RunLoop.Mode],
        isolation: isolated (any Actor)?
    ) async throws {
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            _ = isolation
            try await withUnsafeThrowingContinuation { continuation in
                sleeper.start(continuation)
                if isOnLoopThread {
                    executor.jobs.withLoop { loop in
                        sleeper.schedule(on: loop, until: deadline, tolerance: tolerance, inModes: modes)
                    }
                } else {
                    execute(wake: true) { loop in
                        sleeper.schedule(on: loop, until: deadline, tolerance: tolerance, inModes: modes)
                    }
                }
            }
        } onCancel: {
            sleeper.cancel(on: self)
        }
    }

    /// Suspends the calling task for `duration` of the loop's clock; see ``sleep(until:tolerance:inModes:)``.
    nonisolated(nonsending) public func sleep(
        for duration: Duration, tolerance: Duration? = nil, inModes modes: [RunLoop.Mode] = [.common]
    ) async throws {
        try await sleep(until: clock.now(.uptime) + duration, tolerance: tolerance, inModes: modes)
    }

    /// The loop's clock as a Swift `Clock` on `kind`, whose sleeps are timers of this loop in
    /// `modes` (rule C-X2).
    public func clock(_ kind: ClockKind = .uptime, inModes modes: [RunLoop.Mode] = [.common]) -> LoopClock {
        LoopClock(handle: self, kind: kind, modes: modes)
    }
}
