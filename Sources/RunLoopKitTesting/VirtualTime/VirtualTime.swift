import Glibc
import RunLoopKit
import Synchronization

#if compiler(>=6.3) && compiler(<6.4)
@_spi(ExperimentalScheduling) import _Concurrency
#endif

/// A scope in which the Swift runtime's global executor is a run loop on a `VirtualClock`: every
/// task that is not bound to an actor or an executor runs on the loop's thread, and the runtime's
/// sleeps are timers of the loop, so they take virtual time.
///
/// Inside ``run(on:resolution:_:)``, a job the runtime would give its global
/// executor — the start and every resumption of a `Task {}`, a `Task.detached {}` or a child task
/// without an executor preference — is queued on the loop like a job of its
/// `RunLoop.LoopTaskExecutor` (rule C-X1), from any thread, waking the loop. Such a job runs with
/// the scope as its task executor, so a sleep in it —
/// `Task.sleep(for:)`, `Task.sleep(nanoseconds:)`, `ContinuousClock().sleep(for:)`,
/// `SuspendingClock().sleep(for:)` — becomes a one-shot timer of the loop in its common modes,
/// at the loop's uptime now plus the time left: sleepers resume in deadline order, equal
/// deadlines in the order they slept (C-T3). Both runtime clocks map to the loop's uptime.
/// A cancelled sleep leaves nothing: its timer is gone by the time its task resumes with
/// `CancellationError`, whether it was cancelled on the loop's thread or another, so a timeout
/// that lost its race is neither waited for nor reported as a leak.
///
/// The runtime's clocks read virtual time in a scope: this library's C part (CVirtualClockReads)
/// defines the process's `clock_gettime`, and while a scope is active, the runtime's
/// `swift_get_time` — behind `ContinuousClock.now`, `SuspendingClock.now` and the deadline of
/// every runtime sleep — gets the loop's continuous time for `ContinuousClock` and its uptime for
/// `SuspendingClock`, counted from zero like the `VirtualClock`'s, from any thread. Every other
/// caller of `clock_gettime` (RunLoopKit's real clocks, Dispatch, Foundation) reads real time, and
/// a process that does not link this library reads its clocks as it always does.
/// `swift_get_time` itself cannot be replaced: the runtime's own callers call it directly, not
/// through the dynamic linker. The first scope of a process checks that `ContinuousClock.now`
/// reads its virtual time, and throws ``VirtualTimeError/Kind/clockReads`` with the reason when it
/// does not (the article <doc:TestingTime> says what was checked).
///
/// In an executable that does not link that C part, the runtime's clocks read real time, and a
/// sleep's deadline is a real instant, computed a moment before the sleep reaches the loop. Either
/// way the time left is rounded up to a multiple of the scope's `resolution` (a millisecond by
/// default): a sleep of whole milliseconds takes exactly that long in virtual time, and a sleep of
/// 1.5 milliseconds takes 2.
/// On real reads, a thread preempted in that moment for longer than the resolution (a busy
/// machine) would make the sleep shorter by the stall: a test that must be exact under load uses
/// a coarser resolution, such as a second for sleeps of whole seconds. On virtual reads the time
/// left is exact, and a resolution of a nanosecond keeps every sleep as it was asked.
///
/// When `body` returns (or throws), the scope runs the loop in its default mode until none of
/// the jobs it took is left: the queued jobs have run and no sleep's timer is waiting — neither
/// a sleep of the runtime's clocks nor one on the loop's own (`VirtualClock`'s `sleep`, a
/// `LoopClock`, `RunLoop.Handle`'s `sleep(for:tolerance:inModes:file:line:)`). Virtual
/// time jumps from deadline to deadline, so hours of sleeps take milliseconds. Then the hook is
/// removed and the runtime's own executor takes its jobs again. A task that never stops sleeping keeps the scope running; a task
/// still waiting for something else (a continuation, real I/O) resumes later on the runtime's own
/// executor, in real time.
///
/// What stays outside: sleeps in an actor's code — the runtime asks the actor's executor and then
/// its own default executor, never the scope, so they wait in real time (the actor's other jobs
/// run on the loop's thread unless the actor has an executor of its own), and on virtual clock
/// reads their deadline is a virtual instant that executor compares with the real clock, so it
/// means nothing there: keep actors' sleeps out of a scope; the main actor's jobs (on the main
/// executor) and those of tasks that prefer another executor; threads not made as tasks (a
/// `Task {}` they make is caught); `DispatchQueue.asyncAfter`, dispatch timers and other real
/// timers; real I/O and the time it takes; and, without the C part, clocks read directly —
/// `ContinuousClock.now` is then real time, while the loop's `now` is virtual.
///
/// The hook is process-wide: one scope at a time in a process, and never in a process running
/// other work in parallel — a test runner that runs tests in parallel in one process must run a
/// test of the scope in a child process (an exit test). Call it on the loop's thread. The hook is
/// the runtime's internal ABI, installed only by the Swift toolchain it was checked on (6.3):
/// built with another, a scope throws ``VirtualTimeError/Kind/unsupportedRuntime`` before anything
/// runs.
///
/// ```swift
/// let clock = VirtualClock()
/// let loop = RunLoop(timeSource: .virtual(clock))
/// try VirtualTime.run(on: loop) {
///     Task {
///         try await Task.sleep(for: .seconds(3_600))
///         print(clock.now())   // an hour of virtual uptime, at once
///     }
/// }
/// ```
public enum VirtualTime {
    /// Runs `body` with the runtime's global executor and sleeps on `loop`, whose clock must be a
    /// `VirtualClock`, then runs the loop until the tasks of the scope are done or waiting for
    /// something other than a sleep; see ``VirtualTime``. Returns what `body` returned, or throws
    /// what it threw once the loop has run. Stops the program, with a message, if another scope is
    /// active or the calling thread is not the loop's.
    ///
    /// The runtime's sleeps are rounded up to a multiple of `resolution`, which must be positive.
    ///
    /// Throws a ``VirtualTimeError`` instead of running forever:
    /// - ``VirtualTimeError/Kind/notVirtual`` before anything runs, when the loop's clock is not a
    ///   `VirtualClock`;
    /// - ``VirtualTimeError/Kind/unsupportedRuntime``, ``VirtualTimeError/Kind/hookInUse`` or
    ///   ``VirtualTimeError/Kind/clockReads`` before anything runs, when the runtime cannot be taken
    ///   over (another toolchain, another hook, clock reads that stay real), and
    ///   ``VirtualTimeError/Kind/hookInUse`` at the end if another hook replaced the scope's;
    /// - ``VirtualTimeError/Kind/runaway`` once the loop has run what its `runawayLimits` allow at
    ///   one virtual instant after `body` returned (100,000 jobs or 10,000 passes): a task
    ///   that neither sleeps nor ends (`while true { await Task.yield() }`), or a timer that
    ///   re-arms itself at the same instant. The error names the instant, and the timers due then
    ///   with where they were made. The scope ends there: the jobs still queued stay on the loop,
    ///   which must outlive them (a loop that goes away with jobs queued stops the program, C-X1).
    @available(*, noasync)
    @discardableResult
    public static func run<Result>(
        on loop: RunLoop, resolution: Duration = .milliseconds(1), _ body: () throws -> Result
    ) throws -> Result {
        guard loop.timeSource.virtualClock != nil else {
            throw VirtualTimeError.notVirtual("VirtualTime.run(on:)", loop: loop)
        }
        loop.preconditionOnLoopThread("VirtualTime.run(on:resolution:_:)")
        precondition(resolution > .zero, "VirtualTime.run(on:): the resolution must be positive")
        let scope = VirtualTimeScope(handle: loop.handle, resolution: resolution)
        let result = try RuntimeHook.with(scope) { () throws(VirtualTimeError) in
            let result = Swift.Result { try body() }
            try scope.finish(on: loop)
            return result
        }
        return try result.get()
    }

    /// Whether a virtual-time scope is active in the process — from ``run(on:resolution:_:)``,
    /// ``test(on:timeLimit:checkingLeaks:resolution:_:)``, the `.virtualTime` trait or XCTest's
    /// `runWithVirtualTime` — on any thread. While one is, the runtime's global executor is the
    /// scope's loop, and `ContinuousClock.now` and `SuspendingClock.now` read its virtual time.
    /// Test helpers ask it to tell a scope from real time: code that waits on another thread
    /// declares that work to the loop (``activeLoop``), a check of real elapsed time is skipped.
    ///
    /// ```swift
    /// let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    /// let onTheLoop = try VirtualTime.test(on: loop) {
    ///     VirtualTime.isActive && VirtualTime.activeLoop?.isOnLoopThread == true
    /// }
    /// // onTheLoop == true; after the test, VirtualTime.isActive == false
    /// ```
    public static var isActive: Bool {
        RuntimeHook.activeHandle != nil
    }

    /// The handle of the active scope's loop, from any thread; `nil` when no scope is active
    /// (``isActive``). `VirtualTime.activeLoop?.isOnLoopThread == true` says the caller runs on
    /// the scope's loop: a task of the scope, a timer's or a source's callout. A helper that hands
    /// work to another thread declares it with the handle's `beginExternalWork()`, so the scope
    /// neither jumps nor reports a deadlock while it runs:
    ///
    /// ```swift
    /// /// Runs `work` on a dispatch queue; inside a scope the loop waits for it.
    /// func runOutside(_ work: @escaping @Sendable () -> Void) {
    ///     let declared = VirtualTime.activeLoop?.beginExternalWork()
    ///     DispatchQueue.global().async {
    ///         work()  // hands its result to the loop: resumes a continuation, posts a block
    ///         declared?.finish()
    ///     }
    /// }
    /// ```
    public static var activeLoop: RunLoop.Handle? {
        RuntimeHook.activeHandle
    }
}

/// A runtime sleep of a scope that has neither fired nor been cancelled: the runtime's wake-up job
/// for it, and the timer that queues that job. `timer` and `isOver` are touched on the loop's
/// thread only.
private final class RuntimeSleep: @unchecked Sendable {
    /// The job the runtime made to end the sleep: it resumes the sleeping task when the sleep is
    /// still on, and frees the sleep's state when a cancellation has resumed the task already.
    let wakeUp: UnownedJob
    var timer: Timer?
    /// Whether the wake-up job has been queued: a timer not yet made is not made.
    var isOver = false

    init(wakeUp: UnownedJob) {
        self.wakeUp = wakeUp
    }
}

/// The executor of one ``VirtualTime`` scope: the runtime's global jobs go to its loop, and the
/// sleeps of tasks running on it become timers of the loop.
///
/// A job of the scope runs on the loop with the scope as its thread's task executor, so the
/// runtime's sleeps (`Task.sleep`, the clocks' `sleep`) find it as their scheduling executor and
/// call ``enqueue(_:after:tolerance:clock:)`` or ``enqueue(_:at:tolerance:clock:)``.
///
/// A cancelled sleep leaves nothing: the runtime resumes a task sleeping on the scope either
/// through the sleep's wake-up job, which the scope holds until the sleep's timer fires, or — when
/// the task is cancelled — at once, with `CancellationError`, by queuing the task's own job on the
/// executor it slept on. So a job of a task whose sleep is still listed means the sleep was
/// cancelled: its timer is invalidated before the task resumes, and the wake-up job runs then,
/// finds the sleep cancelled and frees it. One case escapes: a cancellation on another thread
/// between the runtime publishing the sleep and the task suspending resumes the task in place,
/// queuing no job. The sleep then stays listed until the task's next job comes (its state is
/// cancelled by then, so ending it is safe), a later sleep listed at its address replaces it,
/// or its timer fires. Ending it sooner would need the runtime's private sleep state: before the
/// cancellation handler has run, the wake-up job would end the sleep early, as if it finished.
final class VirtualTimeScope: TaskExecutor {
    let handle: RunLoop.Handle
    /// What the time left until a deadline of the runtime's clocks is rounded up to a multiple of.
    private let resolution: Duration
    /// The runtime's sleeps of the scope whose timer has not fired, by the address of the task
    /// that sleeps (a task's job has the task's address).
    private let sleeps = Mutex<[UInt: RuntimeSleep]>([:])
    /// How many sleeps have been listed and their wake-up job not queued yet, read without a lock:
    /// a cancelled sleep counts until its wake-up job is queued, on the loop's thread.
    private let waitingSleeps = Atomic<Int>(0)

    init(handle: RunLoop.Handle, resolution: Duration) {
        self.handle = handle
        self.resolution = resolution
    }

    /// Queues `job` on the loop (rule C-X1), to run with the scope as its task executor. A job of a
    /// task whose sleep is listed resumes it from a cancellation: the sleep ends first, at once on
    /// the loop's thread and, from another, by a message the loop handles before it takes the jobs
    /// queued after it (`RunLoop.Handle`'s sleepers do the same), so the task never sees its timer.
    func enqueue(_ job: UnownedJob) {
        if waitingSleeps.load(ordering: .acquiring) > 0, let sleep = take(RuntimeHook.address(of: job)) {
            handle.withLoopSoon { _ in self.end(sleep) }
        }
        handle.enqueueGlobalJob(job, taskExecutor: self)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        enqueue(UnownedJob(job))
    }

    /// Lists `job`, the wake-up job of a sleep of the running task, and queues it on the loop when
    /// `delay` of its uptime has passed: a one-shot timer in its common modes named `name`, added
    /// at once on the loop's thread and at its next pass from another. The runtime gives no call
    /// site, so the timer names none (it would be this file's).
    private func enqueue(_ job: UnownedJob, after delay: Duration, name: String) {
        let deadline = handle.timeSource.now(.uptime) + delay
        let sleep = RuntimeSleep(wakeUp: job)
        // The runtime sleeps in a task; without one, the sleep's own address is a key no job has.
        let key = RuntimeHook.currentTaskAddress ?? UInt(bitPattern: Unmanaged.passUnretained(sleep).toOpaque())
        let stale = sleeps.withLock { sleeps in
            waitingSleeps.add(1, ordering: .releasing)
            return sleeps.updateValue(sleep, forKey: key)
        }
        handle.withLoopSoon { loop in
            // A sleep listed for a task that runs again without its job having come here was
            // resumed elsewhere, by its cancellation: it ends now.
            if let stale { self.end(stale) }
            guard !sleep.isOver else { return }
            let timer = Timer(fireAt: deadline, interval: .zero, repeats: false) { _ in
                sleep.timer = nil
                guard self.take(key, ifItIs: sleep) != nil else { return }
                self.queueWakeUp(of: sleep)
            }
            timer.isSleeper = true
            timer.forgetCreationSite()
            timer.metricsName = name
            loop.add(timer, forMode: .common)
            sleep.timer = timer
        }
    }

    /// Removes the sleep listed under `key` (only if it is `expected`, when given) and returns it.
    private func take(_ key: UInt, ifItIs expected: RuntimeSleep? = nil) -> RuntimeSleep? {
        sleeps.withLock { sleeps in
            guard let sleep = sleeps[key], expected.map({ $0 === sleep }) ?? true else { return nil }
            sleeps[key] = nil
            // A burst of sleeps leaves no table behind.
            if sleeps.isEmpty && sleeps.capacity > 64 { sleeps = [:] }
            return sleep
        }
    }

    /// Ends a cancelled sleep, taken from the list, on the loop's thread: its timer goes, and the
    /// runtime's wake-up job runs, which finds the sleep cancelled and frees it.
    private func end(_ sleep: RuntimeSleep) {
        guard !sleep.isOver else { return }
        sleep.timer?.invalidate()
        sleep.timer = nil
        queueWakeUp(of: sleep)
    }

    /// Queues the wake-up job of `sleep`, taken from the list, on the loop's thread; the sleep no
    /// longer waits.
    private func queueWakeUp(of sleep: RuntimeSleep) {
        sleep.isOver = true
        handle.enqueueGlobalJob(sleep.wakeUp, taskExecutor: self)
        waitingSleeps.subtract(1, ordering: .releasing)
    }

    /// Whether a job of the scope is queued, a sleep of it waits, a task sleeps on `loop`'s own
    /// clock (a sleeper in its default mode: `VirtualClock`'s `sleep`, a `LoopClock`'s,
    /// `RunLoop.Handle`'s `sleep(until:tolerance:inModes:file:line:)`), or work outside the loop
    /// that may start more is under way (`RunLoop.Handle`'s `beginExternalWork()`).
    private func isBusy(_ loop: RunLoop) -> Bool {
        // Outside work first: it queues its jobs before it finishes, so once its count reads zero
        // (acquiring what its finish released) those jobs are seen as pending. Read after the jobs,
        // a job queued and the work finished between the two reads would be missed, and the scope
        // would end with the job left on the loop.
        handle.hasExternalWork
            || waitingSleeps.load(ordering: .relaxed) > 0 || handle.hasPendingJobs
            || loop.registrationCount(of: .sleeper, inMode: .default) > 0
    }

    /// Runs `loop` in its default mode until the scope is no longer busy: an observer stops the
    /// run before the loop would wait with nothing of the scope left. Throws a runaway once the
    /// loop's `runawayLimits` are reached at one virtual instant.
    func finish(on loop: RunLoop) throws(VirtualTimeError) {
        guard isBusy(loop) else { return }
        var count = RunawayCount(on: loop)
        var runaway: VirtualTimeError?
        let observer = RunLoop.Observer(activities: [.beforeTimers, .beforeWaiting]) {
            [unowned loop] _, activity in
            if activity == .beforeWaiting {
                if !self.isBusy(loop) { loop.stop() }
                return
            }
            do throws(VirtualTimeError) {
                try count.check(loop, at: loop.now, inMode: .default)
            } catch {
                runaway = error
                loop.stop()
            }
        }
        loop.add(observer, forMode: .default)
        defer { observer.invalidate() }
        while runaway == nil, isBusy(loop) {
            loop.run(mode: .default)
        }
        if let runaway { throw runaway }
    }
}

#if compiler(>=6.3) && compiler(<6.4)
/// The runtime's sleeps in a scope: a task running on the scope finds it as its scheduling
/// executor, and its sleep becomes a timer of the loop.
extension VirtualTimeScope: SchedulingExecutor {
    /// Queues `job` on the loop after `delay` of its virtual uptime, whatever `clock` is.
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
        enqueue(UnownedJob(job), after: Self.duration(delay, of: clock), name: Self.sleepName(on: clock))
    }

    /// Queues `job` on the loop when the time left until `instant` of `clock` has passed on its
    /// virtual uptime. The runtime's own clocks read real time, a moment after the sleep computed
    /// its deadline: their time left is rounded up to a multiple of ``resolution``.
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        var delay = Self.duration(clock.now.duration(to: instant), of: clock)
        if clock is ContinuousClock || clock is SuspendingClock {
            let (step, left) = (resolution.nanoseconds, delay.nanoseconds)
            let whole = left - left % step
            delay = .nanoseconds(whole == left ? left : whole + min(step, Int64.max - whole))
        }
        enqueue(UnownedJob(job), after: delay, name: Self.sleepName(on: clock))
    }

    /// What a registration, a leak or a deadlock calls a runtime sleep on `clock`: string literals,
    /// so that a sleep allocates no name.
    private static func sleepName<C: Clock>(on clock: C) -> String {
        if clock is ContinuousClock { return "ContinuousClock sleep (the runtime gives no call site)" }
        if clock is SuspendingClock { return "SuspendingClock sleep (the runtime gives no call site)" }
        return "runtime sleep (the runtime gives no call site)"
    }

    /// `duration` of `clock` as a `Duration`; the program stops for a clock whose durations are not.
    private static func duration<C: Clock>(_ duration: C.Duration, of clock: C) -> Duration {
        guard let duration = duration as? Duration else {
            fatalError("VirtualTime: a sleep on \(C.self), whose durations are not Swift.Duration")
        }
        return max(duration, .zero)
    }
}
#endif
