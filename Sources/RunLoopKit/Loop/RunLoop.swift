internal import CLinuxEvents
import Glibc

/// A run loop with the semantics of Apple's `CFRunLoop`/`NSRunLoop`, on Linux.
///
/// One run loop per thread (``current``), created on first use. A run loop runs in one *mode* at a
/// time and services only that mode's timers, sources, observers and blocks (runloop-reference
/// 1.1–1.3); a callout may run it again, re-entrantly, in another mode (C-M11) — which is how a
/// scroll gesture runs the ``Mode/tracking`` mode while ``Mode/default`` timers wait (seed M2).
///
/// The loop is bound to the thread that created it and is not `Sendable`; other threads use
/// ``handle``. Time comes from its ``timeSource``: the kernel's, or a ``VirtualClock`` for tests, on which
/// waiting jumps straight to the next deadline.
///
/// ```swift
/// let loop = RunLoop.current
/// loop.addCommonMode(.tracking)
/// let timer = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { _ in tick() }
/// loop.add(timer, forMode: .common)
/// loop.run()
/// ```
public final class RunLoop {
    /// The loop's time base.
    public let timeSource: TimeSource
    /// The `Sendable` part of the loop for other threads.
    public let handle: Handle
    /// The loop as the serial executor of actors bound to it (rule C-X1).
    public var executor: any SerialExecutor { handle.executor }
    /// The loop as the task executor of tasks that prefer it (rule C-X1).
    public var taskExecutor: any TaskExecutor { handle.taskExecutor }

    let shared: LoopShared
    let waiter: Waiter
    /// How the loop's items and executors reach it without giving it a side table.
    let life: LoopLife
    let ownerThread: pthread_t
    /// The kernel id of ``ownerThread``, for messages.
    let ownerThreadKernelID: Int32

    var modeStates: [Mode: ModeState] = [:]
    /// Mode states by queue id − 1 (queue ids start at 1): read whenever a timer leaves a mode, only
    /// on the loop's thread and never across a callout, so without dynamic exclusivity checks.
    @exclusivity(unchecked) var statesByQueueID: [ModeState] = []
    /// The common-modes set, in the order modes were made common (C-M2, C-M3).
    @exclusivity(unchecked) private(set) var commonModeList: [Mode] = [.default]
    var commonItems = CommonItems()
    // The fields a pass reads every time are only touched on the loop's thread, and no access to
    // them spans a callout, so their dynamic exclusivity checks (a runtime call each) are off.
    /// Blocks queued by ``perform(inModes:_:)`` and from other threads, oldest first (C-B1).
    @exclusivity(unchecked) var blocks: [(modes: [Mode], block: () -> Void)] = []
    /// The runs in progress, innermost last (C-M11).
    @exclusivity(unchecked) var runs: [PerRun] = []
    /// Delayed performs waiting to run, by target (C-P2).
    var performRequests = PerformRequests()
    /// The insertion orders of the loop's timers and timeout sets (C-T3).
    let insertionOrders = InsertionOrders()
    /// How many of the loop's timers are running their callout now (C-T4): while none is, the
    /// wake-up window needs no timer's firing flag.
    @exclusivity(unchecked) var firingTimerCount = 0
    /// The timeout sets made for ``Mode/common``, copied into a mode that becomes common (C-M5).
    var commonTimeoutSets: [TimeoutSet] = []
    /// Whether a main-queue drain is in progress (``serviceMainQueue(in:)``), so a nested run does not drain again.
    @exclusivity(unchecked) var isDrainingMainQueue = false
    /// The modes whose passes run executor jobs (C-X1); ``executorModes``.
    @exclusivity(unchecked) var jobModes: [Mode] = [.common]
    /// Whether executor jobs are running, so that a run nested in one runs none (C-X1).
    @exclusivity(unchecked) var isRunningJobs = false
    /// The jobs taken from the executor's queue, oldest first, from ``nextTakenJob`` on not yet run:
    /// a pass that reaches its job limit leaves them for the next (C-X1). A reused buffer, only
    /// touched on the loop's thread.
    @exclusivity(unchecked) var takenJobs: [JobQueue.Job] = []
    /// The first job of ``takenJobs`` still to run.
    @exclusivity(unchecked) var nextTakenJob = 0
    /// Executor jobs run so far (``executorJobsRun``).
    @exclusivity(unchecked) var jobsRun = 0
    /// Why the last sleep ended, when an after-waiting observer asked (``lastWakeReason``).
    @exclusivity(unchecked) var wakeReason: WakeReason?
    /// The swift-metrics handles while ``reportMetrics(label:dimensions:factory:)`` is on; nil (and free) otherwise.
    @exclusivity(unchecked) var metrics: LoopMetrics?
    /// How many passes at one virtual instant RunLoopKitTesting's operations on the loop allow
    /// before they report a runaway (its `runawayLimits`).
    package var passLimitAtOneInstant = 10_000
    /// How many executor jobs at one virtual instant they allow (its `runawayLimits`).
    package var jobLimitAtOneInstant = 100_000
    /// The state found by the last ``existingModeState(for:)`` lookup, to skip hashing the mode name.
    /// Read on every timer added and every pass; only touched on the loop's thread and read or
    /// written whole, so its dynamic exclusivity check is off.
    @exclusivity(unchecked) private var lastModeState: ModeState?
    /// The clock's reading at the start of the latest timer pass: a time no later than now. A timer
    /// joining the loop with a fire date at or after it needs no reading of the clock (``notBeforeNow(_:)``).
    @exclusivity(unchecked) var lastPassTime: Int64 = 0

    /// Per-run data: the mode being run and its stop flag (`__CFRunLoopPushPerRunData`). A value in
    /// ``runs``: a run, nested or not, allocates nothing for it.
    struct PerRun {
        /// The id of the mode's state (its queue's, ``statesByQueueID``): no reference to retain and
        /// release at every run (a virtual day runs the loop five million times).
        let queueID: Int32
        var stopped = false
    }

    /// Creates a run loop bound to the calling thread. It does not become the thread's ``current``
    /// loop; use ``withCurrent(_:_:)`` for that. Its common-modes set is `[default]` (C-M3).
    ///
    /// A run loop needs three descriptors (an eventfd, a timerfd, an epoll set). When the process has
    /// none left this initialiser stops the program with a message naming the failed call; use
    /// ``make(timeSource:)`` to get that failure as an error instead.
    public convenience init(timeSource: TimeSource = .system) {
        let resources: Resources
        do {
            resources = try Resources(clock: timeSource)
        } catch {
            fatalError(
                "RunLoop: cannot create a run loop: \(error); free descriptors or raise the limit (ulimit -n), or use RunLoop.make(timeSource:) to handle it"
            )
        }
        self.init(timeSource: timeSource, resources: resources)
    }

    /// Creates a run loop bound to the calling thread, like ``init(timeSource:)``, and reports a failed
    /// system call (out of descriptors: `EMFILE`) as a ``SystemCallError``.
    public static func make(timeSource: TimeSource = .system) throws(SystemCallError) -> RunLoop {
        RunLoop(timeSource: timeSource, resources: try Resources(clock: timeSource))
    }

    /// The kernel objects a run loop needs: its eventfd, its timerfd, the default mode's epoll set.
    private struct Resources {
        let shared: LoopShared
        let waiter: Waiter
        let defaultEpoll: Int32

        init(clock: TimeSource) throws(SystemCallError) {
            shared = try LoopShared()
            waiter = try Waiter(shared: shared, clock: clock)
            defaultEpoll = try waiter.makeEpollSet()
        }
    }

    private init(timeSource clock: TimeSource, resources: Resources) {
        self.timeSource = clock
        shared = resources.shared
        waiter = resources.waiter
        ownerThread = pthread_self()
        ownerThreadKernelID = cle_thread_id()
        life = LoopLife(ownerThread: ownerThread, ownerThreadKernelID: ownerThreadKernelID)
        let jobs = JobQueue(
            shared: resources.shared, life: life, ownerThread: ownerThread, ownerThreadKernelID: ownerThreadKernelID)
        handle = Handle(
            shared: resources.shared, jobs: jobs, serialExecutor: Executor(jobs: jobs),
            loopTaskExecutor: LoopTaskExecutor(jobs: jobs),
            timeSource: clock)
        waiter.adopt(resources.defaultEpoll, for: modeState(for: .default))
        life.bind(self)
        clock.servingLoop?.claim(handle)
        if let control = clock.timeControl {
            // A change of the controlled clock moves every deadline: a sleeping loop recomputes its own.
            weak let shared = resources.shared
            control.observeChanges {
                guard let shared else { return false }
                shared.wakeUp()
                return true
            }
        }
    }

    deinit {
        // Items reach the loop through its life (timers unowned, let go below), so they see it gone
        // from here on; they must not believe they are common items of a loop that no longer exists.
        life.end()
        commonItems.forgetAll()
        releaseTimers()
        handle.jobs.close(alsoDropping: takenJobs.count - nextTakenJob)
        // Kept for good, in every build: an actor or task that outlives the loop meets the trap of
        // a closed queue (rule C-X1) rather than freed memory. Two small objects per loop made.
        _ = Unmanaged.passRetained(handle.serialExecutor)
        _ = Unmanaged.passRetained(handle.loopTaskExecutor)
        timeSource.servingLoop?.release(handle)
    }

    /// Lets go of the timers still in the loop's modes as the loop goes away: they belong to no
    /// loop from now on (their reference to it is unowned, ``Timer/runLoop``).
    private func releaseTimers() {
        for state in statesByQueueID {
            let queueID = state.timers.id
            state.timers.forEachTimer { $0.loopWentAway(visitedFrom: queueID) }
        }
    }

    /// The calling thread's run loop, created with the system clock on first use (C-R13).
    ///
    /// Stops the program with a message naming the failed system call if the loop cannot be created
    /// (the process is out of descriptors); ``make(timeSource:)`` reports that as an error.
    @available(*, noasync)
    public static var current: RunLoop {
        CurrentRunLoop.get()
    }

    /// Runs `body` with `loop` as the calling thread's ``current`` run loop, then restores the previous one.
    ///
    /// This is how a program or a test puts a loop on a ``VirtualClock`` behind the APIs that use
    /// the current loop, such as ``Timer/scheduledTimer(withInterval:repeats:on:forMode:file:line:block:)``.
    @available(*, noasync)
    public static func withCurrent<Result>(_ loop: RunLoop, _ body: () throws -> Result) rethrows -> Result {
        try CurrentRunLoop.with(loop, body)
    }

    /// The current uptime reading of the loop's clock.
    @inline(__always)
    public var now: Instant {
        timeSource.now(.uptime)
    }

    /// The mode of the innermost run in progress, or `nil` when the loop is not running.
    public var currentMode: Mode? {
        runs.last.map { state(withQueueID: $0.queueID).mode }
    }

    /// How many runs are in progress (nested runs count one each).
    public var nestingDepth: Int {
        runs.count
    }

    /// The modes of the runs in progress, outermost first: the loop's own stack of runs.
    public var runModes: [Mode] {
        runs.map { state(withQueueID: $0.queueID).mode }
    }

    /// The modes an item added to ``Mode/common`` goes into (C-M2), in the order they became common.
    public var commonModes: [Mode] {
        commonModeList
    }

    /// Every mode the loop has created, default first.
    public var allModes: [Mode] {
        statesByQueueID.map(\.mode)
    }

    /// Adds `mode` to the common-modes set and puts every common item into it (C-M5).
    ///
    /// Idempotent; there is no way to take a mode out of the set, as in CF.
    public func addCommonMode(_ mode: Mode) {
        checkThread("addCommonMode(_:)")
        guard mode != .common, !commonModeList.contains(mode) else { return }
        commonModeList.append(mode)
        let state = modeState(for: mode)
        commonItems.copy(into: state, of: self)
        state.timeoutSets.append(contentsOf: commonTimeoutSets)
        watchMainQueue(in: state)
    }

    /// Whether `mode` is in the common-modes set.
    func isCommonMode(_ mode: Mode) -> Bool {
        commonModeList.contains(mode)
    }

    /// Runs the loop in `mode` until `limit`, a stop, an empty mode or (if asked) one handled source
    /// (`CFRunLoopRunInMode`, runloop-reference C-R1…C-R5).
    ///
    /// A limit at or before now polls: one pass without sleeping, returning ``RunResult/timedOut``
    /// or ``RunResult/handledSource`` (C-R3). Running "in" ``Mode/common`` or in a mode with nothing
    /// in it returns ``RunResult/finished`` at once (C-M7, C-M9, decisions.md 4). Timers and blocks
    /// never count as handled sources (C-R4).
    @available(*, noasync)
    @discardableResult
    public func run(
        mode: Mode = .default, until limit: Instant = .distantFuture,
        returnAfterSourceHandled: Bool = false
    ) -> RunResult {
        precondition(isOnOwnerThread, threadMismatch("run(mode:until:)"))
        limit.checkUptimeDeadline("RunLoop.run(mode:until:)")
        guard mode != .common else { return .finished }
        guard let state = existingModeState(for: mode) else { return .finished }
        return run(in: state, until: limit.nanoseconds, returnAfterSourceHandled: returnAfterSourceHandled)
    }

    /// A run of the mode of `state`, found: ``run(mode:until:returnAfterSourceHandled:)`` after
    /// its checks, and each step of virtual time (``runPasses(inMode:atEachDeadlineThrough:moveClock:beforeEachPass:)``).
    func run(in state: ModeState, until limit: Int64, returnAfterSourceHandled: Bool) -> RunResult {
        drainInbox()
        guard !isEmpty(state) else { return .finished }
        runs.append(PerRun(queueID: state.timers.id))
        defer { runs.removeLast() }
        notify(.entry, in: state)
        let result = runPasses(
            in: state, depth: runs.count - 1, limit: limit, returnAfterSourceHandled: returnAfterSourceHandled)
        notify(.exit, in: state)
        return result
    }

    /// Runs the loop in `mode` for `duration`; see ``run(mode:until:returnAfterSourceHandled:)``.
    @available(*, noasync)
    @discardableResult
    public func run(
        mode: Mode = .default, for duration: Duration,
        returnAfterSourceHandled: Bool = false
    ) -> RunResult {
        run(mode: mode, until: now + duration, returnAfterSourceHandled: returnAfterSourceHandled)
    }

    /// Foundation's `run(mode:before:)`: returns `false` without running if `mode` is empty,
    /// otherwise runs until `limit` or one handled source and returns `true` (C-R13).
    @available(*, noasync)
    public func run(mode: Mode, before limit: Instant) -> Bool {
        guard mode != .common, let state = existingModeState(for: mode), !isEmpty(state) else { return false }
        run(mode: mode, until: limit, returnAfterSourceHandled: true)
        return true
    }

    /// `CFRunLoopRun`: runs the default mode until it is stopped or has nothing left in it.
    @available(*, noasync)
    public func run() {
        while true {
            let result = run(mode: .default, until: .distantFuture)
            if result == .stopped || result == .finished { return }
        }
    }

    /// Stops the innermost run in progress; forgotten if the loop is not running (C-R5).
    public func stop() {
        checkThread("stop()")
        guard !runs.isEmpty else { return }
        runs[runs.count - 1].stopped = true
        shared.wakeUp()
    }

    /// Queues `block` to run on this thread in a later pass in one of `modes` (C-B1…C-B4).
    ///
    /// Like `CFRunLoopPerformBlock` it does not wake the loop; a pass that ends with a block pending
    /// for its mode does not sleep. From another thread use ``Handle/perform(inModes:_:)``, which wakes it.
    public func perform(inModes modes: [Mode] = [.default], _ block: @escaping () -> Void) {
        checkThread("perform(inModes:_:)")
        guard !modes.isEmpty else { return }
        enqueue(modes, block)
    }

    /// Appends a block, creating the modes it names (C-B1).
    func enqueue(_ modes: [Mode], _ block: @escaping () -> Void) {
        for mode in modes where mode != .common { _ = modeState(for: mode) }
        blocks.append((modes, block))
    }

    /// The next fire date of the timers in `mode`, `nil` if it has none that will fire (C-R12).
    public func nextFireDate(forMode mode: Mode) -> Instant? {
        existingModeState(for: mode).flatMap(nextFireDate(in:))
    }

    /// The next fire date of the timers and timeouts of `state`.
    func nextFireDate(in state: ModeState) -> Instant? {
        var first = state.timers.nextToFire()?.deadline ?? Int64.max
        state.forEachTimeoutSet { set in
            if let deadline = set.nextDeadline() { first = min(first, deadline) }
        }
        return first == Int64.max ? nil : Instant(nanoseconds: first)
    }

    /// Foundation's `limitDate(forMode:)`: polls `mode` once (firing due timers), then returns `nil`
    /// if the mode is empty, ``Instant/distantFuture`` if it has no timer, else the next fire date (C-R12).
    @available(*, noasync)
    public func limitDate(forMode mode: Mode) -> Instant? {
        guard mode != .common, let state = existingModeState(for: mode), !isEmpty(state) else { return nil }
        run(mode: mode, until: .zero)
        guard !isEmpty(state) else { return nil }
        return nextFireDate(forMode: mode) ?? .distantFuture
    }

    /// Returns the state of `mode`, creating it on first use (C-M1).
    func modeState(for mode: Mode) -> ModeState {
        if let state = existingModeState(for: mode) { return state }
        let state = ModeState(mode: mode, queueID: Int32(statesByQueueID.count + 1))
        modeStates[mode] = state
        statesByQueueID.append(state)
        return state
    }

    /// The state of `mode` if the loop has made it. The last state found is kept: a run, a poll
    /// and a look at the next fire date then do not hash the mode's name, pass after pass.
    func existingModeState(for mode: Mode) -> ModeState? {
        if let last = lastModeState, last.mode == mode { return last }
        guard let state = modeStates[mode] else { return nil }
        lastModeState = state
        return state
    }

    /// The next insertion order: ties between equal fire times go to the earlier insertion (C-T3).
    @inline(__always)
    func nextInsertionOrder() -> UInt64 {
        insertionOrders.next()
    }

    /// The last insertion order handed out: every later insertion or repositioning gets a greater one.
    var lastInsertionOrder: UInt64 { insertionOrders.last }
}

/// The sequence of insertion orders of one run loop, shared with its timeout sets so that they
/// need no reference to the loop on their hot paths. Only touched on the loop's thread.
final class InsertionOrders {
    /// The last order handed out; 0 before the first.
    @exclusivity(unchecked) private(set) var last: UInt64 = 0

    /// The next order, greater than every one handed out before.
    @inline(__always)
    func next() -> UInt64 {
        last &+= 1
        return last
    }
}

@available(*, unavailable)
extension RunLoop: Sendable {}
