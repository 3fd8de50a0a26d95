import Dispatch
import RunLoopKit
import Synchronization

extension VirtualTime {
    /// Runs `body` as a task on `loop`, whose clock must be a `VirtualClock`, and drives virtual
    /// time until the task ends; returns what it returned, or throws what it threw or a
    /// ``VirtualTimeError`` — a test on it fails and never hangs.
    ///
    /// It runs in a virtual-time scope, as ``run(on:resolution:_:)`` does (it
    /// joins the active one of the same loop, or makes one for its duration): `Task {}`,
    /// `Task.detached {}`, child tasks, `Task.sleep(for:)` and `ContinuousClock().sleep(for:)`
    /// run on the loop and take virtual time, and so does `RunLoop.Handle`'s `sleep(for:tolerance:inModes:file:line:)`.
    /// The scope is process-wide: run each such test in a process of its own (an exit test), or in
    /// a process that runs nothing else meanwhile. Time moves as the loop's `autojump` says: to
    /// each next deadline once nothing is due, by default.
    ///
    /// The runtime's sleeps are rounded up to a multiple of `resolution`, as in
    /// ``run(on:resolution:_:)``: a test that sleeps whole seconds with
    /// `Task.sleep` and must be exact on a loaded machine passes `.seconds(1)`.
    ///
    /// When it returns or throws, the scope (if it made one) ends at once, without waiting for the
    /// jobs of the scope: a task still running later goes on on the loop, whose thread must run it.
    ///
    /// - **Runaway**: what the loop's `runawayLimits` allow at one instant (100,000 executor jobs
    ///   or 10,000 passes, a fraction of a second) throws ``VirtualTimeError/Kind/runaway``,
    ///   naming the timer due first and where it was made, or the tasks that yield without waiting.
    /// - **Deadlock**: when the task waits while nothing is due, scheduled or running, no source
    ///   could deliver input and no outside work is under way, ``VirtualTimeError/Kind/deadlock``
    ///   lists what waits (Go's `synctest`). With `RunLoop.Autojump.after(_:)` input gets that
    ///   long to come first; with `RunLoop.Autojump.off` the loop waits for it. Background timers
    ///   (`Timer`'s `isBackground`) count as nothing scheduled: a heartbeat does not keep a stuck
    ///   test moving time forever.
    /// - **Leaks**: when the task has ended, timers, sleepers and timeouts left in any mode throw
    ///   ``VirtualTimeError/Kind/leaked`` with where they were made (`checkingLeaks`). Neither a
    ///   background timer nor a cancelled sleep is one of them: the timeout that lost a race is
    ///   gone when its task resumes. A runtime sleep left waiting (`Task.sleep`,
    ///   `ContinuousClock().sleep`) is named by its clock and has no site: the runtime does not
    ///   say where it was called.
    /// - **Watchdog**: after `timeLimit` of real time the run stops with
    ///   ``VirtualTimeError/Kind/watchdog``; if the loop's thread is stuck in a callout and cannot
    ///   stop, the program stops with a message after a second `timeLimit` (ten seconds at least).
    /// - **Teardown**: after a runaway, a deadlock or the watchdog, the task is cancelled and what
    ///   that makes due runs, time standing still (so `defer` blocks and cancellation handlers
    ///   run); the error then says whether the task ended, and lists what was still scheduled in
    ///   ``VirtualTimeError/leftAfterTeardown`` (with `checkingLeaks`).
    /// - **Runtime**: a runtime the scope cannot take over throws as
    ///   ``run(on:resolution:_:)`` does, before the task starts; so does a loop
    ///   whose clock is not a `VirtualClock` (``VirtualTimeError/Kind/notVirtual``): the body is
    ///   never queued, on that loop or elsewhere.
    ///
    /// Runs the loop's default mode. Call it on the loop's thread.
    ///
    /// ```swift
    /// let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    /// let handle = loop.handle
    /// let slept = try VirtualTime.test(on: loop, resolution: .seconds(1)) {
    ///     try await Task.sleep(for: .seconds(90))
    ///     return handle.timeSource.now()
    /// }
    /// // slept == Instant.zero + .seconds(90)
    /// ```
    @available(*, noasync)
    @discardableResult
    public static func test<Result: Sendable>(
        on loop: RunLoop, timeLimit: Duration = .seconds(60), checkingLeaks: Bool = true,
        resolution: Duration = .milliseconds(1), _ body: @escaping @Sendable () async throws -> Result
    ) throws -> Result {
        let outcome = LockedValue<Swift.Result<Result, any Error>?>(nil)
        let handle = loop.handle
        let executor = try scope(for: loop, resolution: resolution)
        let task = Task(executorPreference: executor) {
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(try await body())
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            handle.wakeUp()
        }
        try drive(
            on: loop, executor: executor, timeLimit: timeLimit, checkingLeaks: checkingLeaks,
            cancel: { task.cancel() },
            succeeded: {
                guard let result = outcome.withLock({ $0 }) else { return nil }
                if case .success = result { return true }
                return false
            })
        guard let result = outcome.withLock({ $0 }) else {
            preconditionFailure("VirtualTime.test: the drive ended before the test's task")
        }
        return try result.get()
    }

    /// The task executor a test's task on `loop`, whose clock must be a `VirtualClock`, prefers:
    /// the active virtual-time scope of that loop, or a new one, rounding the runtime's sleeps to
    /// `resolution`, that ``drive(on:executor:timeLimit:checkingLeaks:succeeded:)`` installs. Its
    /// sleeps take the loop's virtual time. Throws, before the task is made, what installing the
    /// new scope would (the errors of ``run(on:resolution:_:)`` before anything
    /// runs).
    package static func scope(for loop: RunLoop, resolution: Duration) throws(VirtualTimeError) -> any TaskExecutor {
        guard case .virtual = loop.timeSource else {
            throw .notVirtual("VirtualTime.test(on:)", loop: loop)
        }
        precondition(resolution > .zero, "VirtualTime.test(on:): the resolution must be positive")
        if let scope = RuntimeHook.activeScope(for: loop.handle) { return scope }
        let scope = VirtualTimeScope(handle: loop.handle, resolution: resolution)
        try RuntimeHook.check(scope)
        return scope
    }

    /// Drives virtual time on `loop` for a test's task, which prefers `executor` (from
    /// ``scope(for:resolution:)``), until `succeeded` says the task has ended (`true` when it
    /// succeeded, `false` when it failed, `nil` while it runs); see
    /// ``test(on:timeLimit:checkingLeaks:resolution:_:)``, whose errors it throws. Leaks are
    /// checked after a success, and after the teardown of a failure (`cancel` cancels the task).
    /// Installs the scope for its duration unless it is the active one.
    package static func drive(
        on loop: RunLoop, executor: any TaskExecutor, timeLimit: Duration, checkingLeaks: Bool,
        cancel: () -> Void, succeeded: () -> Bool?
    ) throws(VirtualTimeError) {
        guard case .virtual(let clock) = loop.timeSource else {
            throw .notVirtual("VirtualTime.test(on:)", loop: loop)
        }
        loop.preconditionOnLoopThread("VirtualTime.test(on:timeLimit:checkingLeaks:resolution:_:)")
        guard let scope = executor as? VirtualTimeScope, scope.handle.isHandle(ofSameLoopAs: loop.handle) else {
            preconditionFailure(
                "VirtualTime.drive: the executor is not VirtualTime.scope(for:resolution:) of this loop")
        }
        func run() throws(VirtualTimeError) {
            do throws(VirtualTimeError) {
                try runUntilDone(on: loop, clock: clock, timeLimit: timeLimit, checkingLeaks: checkingLeaks, succeeded)
            } catch {
                let failedWhileRunning: Set<VirtualTimeError.Kind> = [.runaway, .deadlock, .watchdog]
                guard failedWhileRunning.contains(error.kind) else { throw error }
                throw tearDown(after: error, on: loop, checkingLeaks: checkingLeaks, cancel: cancel, succeeded)
            }
        }
        if RuntimeHook.activeScope(for: loop.handle) === scope {
            try run()
        } else {
            try RuntimeHook.with(scope, run)
        }
    }

    /// The drive of ``drive(on:executor:timeLimit:checkingLeaks:cancel:succeeded:)``, in the scope.
    private static func runUntilDone(
        on loop: RunLoop, clock: VirtualClock, timeLimit: Duration, checkingLeaks: Bool, _ succeeded: () -> Bool?
    ) throws(VirtualTimeError) {
        let watchdog = Watchdog(handle: loop.handle, timeLimit: timeLimit)
        defer { watchdog.cancel() }
        var success: Bool?
        while true {
            success = succeeded()
            if success != nil { break }
            if watchdog.expired {
                throw VirtualTimeError(
                    kind: .watchdog, instant: loop.now,
                    message: "the test ran for more than \(timeLimit) of real time; virtual time stood at \(loop.now)",
                    registrations: loop.allRegistrations)
            }
            try loop.runCurrent()
            guard succeeded() == nil else { continue }
            try loop.moveOn(on: clock)
            // Input that came while waiting: its sources run in one pass.
            loop.run(mode: .default, until: .zero)
        }
        guard checkingLeaks, success == true else { return }
        let left = leftScheduled(on: loop)
        if !left.isEmpty {
            throw VirtualTimeError(
                kind: .leaked, instant: loop.now,
                message: "the test ended with \(left.count) timers, sleepers or timeouts still scheduled",
                registrations: left)
        }
    }

    /// The timers, sleepers and timeouts scheduled on `loop` that a test must not leave: all but
    /// background timers.
    private static func leftScheduled(on loop: RunLoop) -> [RunLoop.Registration] {
        loop.allRegistrations.filter { [.timer, .sleeper, .timeoutSet].contains($0.kind) && !$0.isBackground }
    }

    /// Tears down a test that failed with `error` (a runaway, a deadlock, the watchdog): cancels
    /// its task, runs what that made due with time standing still — cancelled sleeps resume, so
    /// `defer` blocks and cancellation handlers run — and returns `error` saying whether the task
    /// ended and what was left. The loop's runaway limits bound the run, so a task that ignores
    /// its cancellation stops it as it stopped the test.
    private static func tearDown(
        after error: VirtualTimeError, on loop: RunLoop, checkingLeaks: Bool, cancel: () -> Void,
        _ succeeded: () -> Bool?
    ) -> VirtualTimeError {
        cancel()
        do throws(VirtualTimeError) {
            try loop.runCurrent()
        } catch {
            // A task that spins on after its cancellation: the teardown ends here.
        }
        return error.tornDown(taskEnded: succeeded() != nil, left: checkingLeaks ? leftScheduled(on: loop) : [])
    }
}

extension RunLoop {
    /// Moves on from a point where nothing is due in the default mode, as ``autojump`` says: jumps
    /// to the next deadline, or first waits for input that could come; throws a deadlock when there
    /// is no deadline and nothing could ever come. Background timers (`Timer`'s `isBackground`)
    /// fire on the way to a deadline of something else, and are no deadline of their own: with
    /// only them scheduled, the test's task waits on nothing that will come. Work that is due
    /// now keeps time where it is, for the next pass to run.
    func moveOn(on clock: VirtualClock) throws(VirtualTimeError) {
        // Declared outside work (`RunLoop.Handle.beginExternalWork()`) holds time under every
        // autojump: its result comes in real time, and the wait ends when the work finishes.
        if handle.hasExternalWork {
            _ = awaitInput(inMode: .default, forReal: VirtualTime.Watchdog.pollInterval)
            return
        }
        // Outside work that finished since the last pass looked (a continuation resumed from a
        // dispatch queue, then the work's token finished) has left its job queued: it runs at the
        // instant the work was declared, not after a jump to the next deadline.
        if hasWorkNow(inMode: .default) { return }
        let next = hasForegroundSchedule(inMode: .default) ? nextFireDate(forMode: .default) : nil
        let inputPossible = mayReceiveInput(inMode: .default)
        switch autojump {
        case .immediately:
            if let next {
                clock.advance(to: next)
                return
            }
            if inputPossible {
                _ = awaitInput(inMode: .default, forReal: VirtualTime.Watchdog.pollInterval)
                return
            }
        case .after(let threshold):
            if awaitInput(inMode: .default, forReal: threshold) { return }
            if let next {
                clock.advance(to: next)
                return
            }
            if inputPossible { return }
        case .off:
            // Time moves only when the test moves it: wait for input (the watchdog ends a wait in vain).
            _ = awaitInput(inMode: .default, forReal: VirtualTime.Watchdog.pollInterval)
            return
        }
        throw VirtualTimeError(
            kind: .deadlock, instant: now,
            message:
                "deadlock at \(now): the test's task waits, and nothing is due or scheduled in the default mode, "
                + "and no source or declared outside work could wake it. The loop cannot see a continuation "
                + "resumed from outside it, an actor, a lock or I/O: declare such work with "
                + "loop.handle.beginExternalWork() and finish() it when its result is handed over",
            registrations: allRegistrations)
    }
}

extension VirtualTime {
    /// A test's real-time limit: when it passes, the loop is woken and the test stops at its next
    /// turn; if the loop's thread has not stopped after a second limit (ten seconds at least), the
    /// program stops.
    final class Watchdog: Sendable {
        /// How long the driver waits for input at most before it looks at the watchdog again.
        static let pollInterval = Duration.milliseconds(100)
        private let state = Atomic<Int>(0)  // 0 running, 1 expired, 2 done
        private let deadline: DispatchTime
        private let timeLimit: Duration

        init(handle: RunLoop.Handle, timeLimit: Duration) {
            self.timeLimit = timeLimit
            let nanoseconds = max(timeLimit.nanoseconds, 0)
            deadline = .now() + .nanoseconds(Int(clamping: nanoseconds))
            DispatchQueue.global().asyncAfter(deadline: deadline) { [self] in
                guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged
                else { return }
                handle.wakeUp()
                // The loop's thread gets another time limit, and at least ten seconds on a loaded machine.
                let grace = max(nanoseconds, 10_000_000_000)
                DispatchQueue.global().asyncAfter(deadline: deadline + .nanoseconds(Int(clamping: grace))) {
                    [self] in
                    guard state.load(ordering: .acquiring) != 2 else { return }
                    fatalError(
                        "VirtualTime.test: the test ran for more than \(timeLimit) of real time and its loop's "
                            + "thread has not come back since: a callout or a job never returns")
                }
            }
        }

        /// Whether the time limit has passed.
        var expired: Bool { state.load(ordering: .acquiring) == 1 }

        /// The test is over: the watchdog does nothing more.
        func cancel() {
            state.store(2, ordering: .releasing)
        }
    }
}
