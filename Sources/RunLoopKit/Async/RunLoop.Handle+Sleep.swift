extension RunLoop.Handle {
    /// Suspends the calling task until `deadline` on the loop's uptime clock: a one-shot timer in the
    /// loop's heap, in `modes` (default: the loop's common modes), with `tolerance` (C-T9) — rule C-X2.
    ///
    /// Like a ``Timer`` in those modes it waits while the loop runs another mode: a sleep in
    /// `[.default]` pauses while the loop tracks (seed M2). On a ``VirtualClock`` or a
    /// ``TimeControl`` it follows the loop's clock: sleepers resume in deadline order, equal
    /// deadlines in the order they slept (C-T3), and pausing, advancing or slowing the clock applies
    /// to them. Cancelling the task invalidates the timer and resumes it at once with
    /// `CancellationError`. An empty `modes` sleeps until cancelled. `file` and `line` name the
    /// sleep in the diagnostics of RunLoopKitTesting (its registrations and errors): leave the defaults.
    ///
    /// Called on the loop's thread (a task that prefers its ``taskExecutor``, an actor bound to its ``executor``) the timer is
    /// added at once, with no system call; from another thread it is added at the loop's next pass.
    ///
    /// ```swift
    /// let handle = loop.handle
    /// Task(executorPreference: handle.taskExecutor) {
    ///     try await handle.sleep(for: .seconds(1), inModes: [.default])   // pauses while scrolling
    /// }
    /// ```
    nonisolated(nonsending) public func sleep(
        until deadline: Instant, tolerance: Duration? = nil, inModes modes: [RunLoop.Mode] = .commonModes,
        file: StaticString = #fileID, line: UInt = #line
    ) async throws {
        let sleeper = Sleeper(handle: self, file: file, line: line)
        try await withTaskCancellationHandler {
            try await withLoopThrowingContinuation { continuation in
                sleeper.start(continuation)
                if isOnLoopThread {
                    jobs.withLoop { loop in
                        sleeper.schedule(on: loop, until: deadline, tolerance: tolerance, inModes: modes)
                    }
                } else {
                    execute(wake: true) { loop in
                        sleeper.schedule(on: loop, until: deadline, tolerance: tolerance, inModes: modes)
                    }
                }
            }
        } onCancel: {
            sleeper.cancel()
        }
    }

    /// Suspends the calling task for `duration` of the loop's clock; see ``sleep(until:tolerance:inModes:file:line:)``.
    nonisolated(nonsending) public func sleep(
        for duration: Duration, tolerance: Duration? = nil, inModes modes: [RunLoop.Mode] = .commonModes,
        file: StaticString = #fileID, line: UInt = #line
    ) async throws {
        try await sleep(
            until: timeSource.now(.uptime) + duration, tolerance: tolerance, inModes: modes, file: file, line: line)
    }

    /// The loop's clock as a Swift `Clock` on `kind`, whose sleeps are timers of this loop in
    /// `modes` (rule C-X2).
    public func clock(_ kind: ClockKind = .uptime, inModes modes: [RunLoop.Mode] = [.common]) -> LoopClock {
        LoopClock(handle: self, kind: kind, modes: modes)
    }
}

extension [RunLoop.Mode] {
    /// `[.common]`, the default modes of a sleep, made once: as a literal it would allocate an
    /// array at every call.
    @usableFromInline static var commonModes: Self { RunLoop.Mode.commonModesArray }
}

extension RunLoop.Mode {
    @usableFromInline static let commonModesArray: [RunLoop.Mode] = [.common]
}
