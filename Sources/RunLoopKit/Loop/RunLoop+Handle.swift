internal import CLinuxEvents
import Glibc
import Synchronization

extension RunLoop {
    /// The part of a run loop that other threads may use: queue work, wake it, stop it.
    ///
    /// Work handed over from another thread always wakes the loop (decisions.md 5, a deliberate
    /// improvement on `CFRunLoopPerformBlock`, which can wait forever for an unrelated wake-up).
    ///
    /// ```swift
    /// let handle = RunLoop.current.handle
    /// DispatchQueue.global().async {
    ///     let result = expensiveWork()
    ///     handle.perform(inModes: [.common]) { show(result) }
    /// }
    /// ```
    public struct Handle: Sendable {
        let shared: LoopShared
        /// The loop's executor jobs, which both its executors queue.
        let jobs: JobQueue
        let serialExecutor: Executor
        let loopTaskExecutor: LoopTaskExecutor

        /// The loop as the serial executor of actors bound to it (rule C-X1): their jobs run on the
        /// loop's thread, between timer callouts, in the passes of the modes in
        /// ``RunLoop/executorModes`` (default: the common modes), in the order they were enqueued,
        /// and never inside another job (swift-nio's `NIOSerialEventLoopExecutor`).
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
        /// stale executor never touches freed memory. Jobs still queued when the loop goes away — a
        /// task resumed or started on the loop that never got its turn — would never run: the program
        /// stops with a message saying how many, rather than leave their tasks waiting forever. Run
        /// the loop until its tasks and actors are done before letting it go.
        public var executor: any SerialExecutor { serialExecutor }

        /// The loop as the task executor of tasks that prefer it (rule C-X1): their jobs run on the
        /// loop's thread, under the same rule as actor jobs. Sleeps on the loop from such a task are
        /// added to the loop at once, which is what makes a run on a ``VirtualClock`` deterministic.
        ///
        /// ```swift
        /// Task(executorPreference: loop.taskExecutor) {
        ///     try await handle.sleep(for: .seconds(1))
        ///     refresh()                                     // on the loop's thread
        /// }
        /// ```
        public var taskExecutor: any TaskExecutor { loopTaskExecutor }
        /// Where the loop's time comes from (its ``RunLoop/timeSource``).
        public let timeSource: TimeSource

        /// Queues `block` to run on the loop's thread in the next pass that runs one of `modes`
        /// (``RunLoop/Mode/common`` stands for every common mode), and wakes the loop (decision 5) —
        /// unless its ``RunLoop/wakeUpPolicy`` is ``RunLoop/WakeUpPolicy/strictCF`` (C-B1).
        public func perform(inModes modes: [Mode] = [.default], _ block: @escaping @Sendable () -> Void) {
            guard !modes.isEmpty else { return }
            shared.post(.perform(modes, block), wake: !shared.isStrictCF)
        }

        /// Queues `block` like ``perform(inModes:_:)`` and wakes the loop whatever its policy: how
        /// libdispatch events reach a loop (C-M12).
        func performAndWake(inModes modes: [Mode], _ block: @escaping @Sendable () -> Void) {
            shared.post(.perform(modes, block), wake: true)
        }

        /// Wakes the loop if it is sleeping, so that it starts a new pass (C-R6).
        public func wakeUp() {
            shared.wakeUp()
        }

        /// Stops the innermost run of the loop, if it is running when the request arrives (C-R5).
        public func stop() {
            shared.post(.stop, wake: true)
        }

        /// Tells a loop on a ``VirtualClock`` that work outside it (I/O on another thread) is under
        /// way. Such work takes no virtual time: before each pass and each wait the loop waits for
        /// real until every such work has finished, so its results are handled at the same point of
        /// the run every time, and the clock never jumps past a deadline ahead of them. The work
        /// must not wait for the loop. On the system clock this only counts.
        public func beginExternalWork() -> ExternalWork {
            shared.externalWork.add(1, ordering: .relaxed)
            return ExternalWork(shared: shared)
        }

        /// Runs `body` with the loop on its own thread at the start of its next pass; wakes it if
        /// `wake`, else only when the policy is ``RunLoop/WakeUpPolicy/handedOverWorkWakes``.
        func execute(wake: Bool = false, _ body: @escaping @Sendable (RunLoop) -> Void) {
            shared.post(.execute(body), wake: wake || !shared.isStrictCF)
        }

        /// Applies `body`, a change to the loop's timers, on the loop's thread. It wakes the loop
        /// like ``execute(wake:_:)``; under ``RunLoop/WakeUpPolicy/strictCF`` it only interrupts
        /// the loop's sleep: the loop applies it and sleeps on until its new deadline, without a
        /// pass, as CF re-arms a mode's timer from the calling thread without waking the loop (C-T7, C-T8).
        func rearm(_ body: @escaping @Sendable (RunLoop) -> Void) {
            guard shared.isStrictCF else { return execute(body) }
            shared.post(.execute(body), wake: false)
            shared.interruptWait()
        }
    }

    /// Outstanding work outside a run loop; see ``Handle/beginExternalWork()``.
    public final class ExternalWork: Sendable {
        private let shared: LoopShared
        private let finished = Atomic<Bool>(false)

        init(shared: LoopShared) {
            self.shared = shared
        }

        /// Marks the work done and wakes the loop; idempotent.
        public func finish() {
            guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
            // Wake first: a virtual loop that reads the count as zero knows every wake-up of the
            // finished work has been written (``Waiter/settleOutsideWork(clearingWakeUps:)``).
            shared.wakeUp()
            shared.externalWork.subtract(1, ordering: .releasing)
        }

        deinit {
            finish()
        }
    }
}

/// A message from another thread to a run loop.
enum InboxMessage: Sendable {
    case perform([RunLoop.Mode], @Sendable () -> Void)
    case stop
    case execute(@Sendable (RunLoop) -> Void)
}

/// What a run loop shares with other threads: its inbox and its wake-up eventfd.
final class LoopShared: Sendable {
    let wakeDescriptor: Int32
    let externalWork = Atomic<Int>(0)
    private let inbox = Mutex<[InboxMessage]>([])
    private let hasMail = Atomic<Bool>(false)
    private let strictCF = Atomic<Bool>(false)
    /// Whether a wake-up may have been written since the eventfd was last read: set after each
    /// write, cleared before each read. A pass that starts with none pending (every pass of a
    /// virtual run with no other thread involved) then costs no system call.
    private let wakeUpsWritten = Atomic<Bool>(false)

    init() throws(SystemCallError) {
        wakeDescriptor = try SystemCall.check("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit {
        close(wakeDescriptor)
    }

    /// Whether the loop follows ``RunLoop/WakeUpPolicy/strictCF``.
    var isStrictCF: Bool { strictCF.load(ordering: .relaxed) }

    func setStrictCF(_ value: Bool) {
        strictCF.store(value, ordering: .relaxed)
    }

    func post(_ message: InboxMessage, wake: Bool) {
        inbox.withLock { $0.append(message) }
        hasMail.store(true, ordering: .releasing)
        if wake { wakeUp() }
    }

    /// Whether a message may wait in the inbox: one atomic load, without the lock.
    @inline(__always)
    var mayHaveMail: Bool { hasMail.load(ordering: .acquiring) }

    /// Takes every queued message, oldest first.
    func takeMail() -> [InboxMessage] {
        guard hasMail.load(ordering: .acquiring) else { return [] }
        return inbox.withLock { messages in
            hasMail.store(false, ordering: .relaxed)
            defer { messages.removeAll() }
            return messages
        }
    }

    /// Whether a block from another thread waits in the inbox (a wake-up's reason, ``RunLoop/WakeReason``).
    var hasPendingPerform: Bool {
        guard hasMail.load(ordering: .acquiring) else { return false }
        return inbox.withLock { messages in
            messages.contains { if case .perform = $0 { true } else { false } }
        }
    }

    /// What a wake-up for work adds to the eventfd's counter; an interruption adds 1. The counter
    /// read back then says, in the same system call that clears it, whether any wake-up asked for a
    /// pass (fewer than 2^32 interruptions can be pending).
    static let wakeUpForWork: UInt64 = 1 << 32

    func wakeUp() {
        signal(Self.wakeUpForWork)
    }

    /// Ends the loop's sleep without asking for a pass: under ``RunLoop/WakeUpPolicy/strictCF`` the
    /// loop applies what is in its inbox and sleeps on (``RunLoop/Handle/rearm(_:)``), unless a
    /// wake-up for work came as well.
    func interruptWait() {
        signal(1)
    }

    private func signal(_ amount: UInt64) {
        var value = amount
        // EAGAIN: the counter is already full, so a wake-up is pending anyway.
        SystemCall.mustSucceed("waking the loop") {
            _ = try SystemCall.nonBlocking("write") { write(wakeDescriptor, &value, 8) }
        }
        // After the write: a drain that finds the flag set finds the write too, or a later drain
        // does (the flag stays set until a read follows it).
        wakeUpsWritten.store(true, ordering: .releasing)
    }

    /// Whether a wake-up was written since the eventfd was last read (it may have been read since
    /// by a drain that raced the writer; the eventfd then reads empty).
    var mayHaveWakeUps: Bool { wakeUpsWritten.load(ordering: .acquiring) }

    /// Clears the pending wake-ups after the loop woke; returns whether any of them asked for a
    /// pass (``wakeUp()``) rather than only interrupting the wait (``interruptWait()``).
    ///
    /// Reads the eventfd only if a wake-up was written since the last read, or if `readable` (epoll
    /// saw it readable, perhaps before its writer marked it written).
    ///
    /// The flag is loaded inline before it is exchanged: most passes find it clear, and a load is
    /// not a locked instruction, as an exchange is (every pass of a virtual day makes one).
    @discardableResult
    @inline(__always)
    func drainWakeUps(readable: Bool = false) -> Bool {
        guard mayHaveWakeUps || readable else { return false }
        return readWakeUps(readable: readable)
    }

    private func readWakeUps(readable: Bool) -> Bool {
        guard wakeUpsWritten.exchange(false, ordering: .acquiringAndReleasing) || readable else { return false }
        var count: UInt64 = 0
        // EAGAIN: another wake-up drain got there first.
        SystemCall.mustSucceed("clearing a wake-up") {
            _ = try SystemCall.nonBlocking("read") { read(wakeDescriptor, &count, 8) }
        }
        return count >= Self.wakeUpForWork
    }
}
