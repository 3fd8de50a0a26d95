import CLinuxEvents
import Glibc
import Synchronization

extension RunLoop {
    /// A run loop as a Swift concurrency executor: a `SerialExecutor` for actors and a
    /// `TaskExecutor` for `Task(executorPreference:)` (swift-nio's `NIOSerialEventLoopExecutor`).
    ///
    /// Jobs enqueued from any thread run on the loop's thread, in the passes of the modes in
    /// ``RunLoop/executorModes`` (default: the common modes), in the order they were enqueued, and
    /// never inside another job (rule C-X1). A job enqueued on the loop's own thread costs no
    /// system call; from another thread the first job of a batch wakes the loop with one eventfd
    /// write, later ones until the loop takes the batch none.
    ///
    /// ```swift
    /// actor Counter {
    ///     nonisolated let unownedExecutor: UnownedSerialExecutor
    ///     var count = 0
    ///     init(loop: RunLoop) { unownedExecutor = loop.executor.asUnownedSerialExecutor() }
    ///     func increment() { count += 1 }   // on the loop's thread, between timer callouts
    /// }
    /// ```
    ///
    /// A loop must outlive every actor bound to it: `UnownedSerialExecutor` does not retain the
    /// executor. A job enqueued after its loop is gone stops the program with a message in debug
    /// builds (the executor of a loop that went away is kept for that), and is undefined behaviour
    /// in release builds. Jobs still queued when the loop goes away never run.
    public final class Executor: SerialExecutor, TaskExecutor {
        /// The jobs waiting for the loop, oldest first, and whether the loop is gone.
        private struct Queue {
            var jobs: [UnownedJob] = []
            var isClosed = false
        }

        private let shared: LoopShared
        private let queue = Mutex(Queue())
        /// Whether ``queue`` has jobs; written under its lock, read without it by the loop's passes.
        private let pending = Atomic<Bool>(false)
        private let ownerThread: pthread_t
        private let ownerThreadKernelID: Int32
        /// The loop, for ``RunLoop/Handle/submit(_:)``. Safe without a lock: written once by the
        /// loop's initialiser, on the loop's thread, before the executor is shared, and read only on
        /// that thread (``withLoop(_:)`` checks); weak, as the loop owns its executor.
        nonisolated(unsafe) private weak var loop: RunLoop?

        init(shared: LoopShared, ownerThread: pthread_t, ownerThreadKernelID: Int32) {
            self.shared = shared
            self.ownerThread = ownerThread
            self.ownerThreadKernelID = ownerThreadKernelID
        }

        /// Queues `job` to run on the loop's thread (rule C-X1).
        public func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let first = queue.withLock { queue -> Bool? in
                guard !queue.isClosed else { return nil }
                queue.jobs.append(job)
                pending.store(true, ordering: .releasing)
                return queue.jobs.count == 1
            }
            guard let first else {
                fatalError(
                    "RunLoop.Executor: a job was enqueued on thread \(cle_thread_id()) for the run loop of thread "
                        + "\(ownerThreadKernelID), which no longer exists; a loop must outlive every actor bound to it")
            }
            // On the loop's thread the loop is awake and looks for jobs before it sleeps (C-X1).
            if first && !isOnLoopThread { shared.wakeUp() }
        }

        /// Stops the program unless the caller runs on the loop's thread, naming both threads.
        public func checkIsolated() {
            precondition(
                isOnLoopThread,
                "RunLoop.Executor.checkIsolated(): running on thread \(cle_thread_id()), but this executor runs "
                    + "its jobs on the run loop of thread \(ownerThreadKernelID)")
        }

        /// Whether the caller runs on the loop's thread, which is what isolation to this executor means.
        public func isIsolatingCurrentContext() -> Bool? {
            isOnLoopThread
        }

        /// Whether the calling thread is the loop's (swift-nio's `inEventLoop`).
        public var isOnLoopThread: Bool {
            pthread_equal(ownerThread, pthread_self()) != 0
        }

        /// Called once by the loop's initialiser.
        func bind(to loop: RunLoop) {
            self.loop = loop
        }

        /// Calls `body` with the loop; only on the loop's thread, while the loop exists.
        func withLoop<Result>(_ body: (RunLoop) throws -> Result) rethrows -> Result {
            checkIsolated()
            guard let loop else {
                fatalError("RunLoop.Executor: the run loop of thread \(ownerThreadKernelID) no longer exists")
            }
            return try body(loop)
        }

        /// Whether jobs wait for the loop.
        var hasPendingJobs: Bool {
            pending.load(ordering: .acquiring)
        }

        /// Swaps the waiting jobs into `jobs`, which must be empty; the loop reuses the buffer.
        func takeJobs(into jobs: inout [UnownedJob]) {
            queue.withLock { queue in
                swap(&jobs, &queue.jobs)
                pending.store(false, ordering: .releasing)
            }
        }

        /// Runs `job` on the loop's thread, isolated to this executor and with it as the task's executor.
        func run(_ job: UnownedJob) {
            job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }

        /// The loop is going away: later jobs trap, queued ones are dropped. In debug builds the
        /// executor is kept for good, so that an actor that outlived its loop meets that trap
        /// rather than freed memory.
        func close() {
            queue.withLock { queue in
                queue.isClosed = true
                queue.jobs = []
                pending.store(false, ordering: .releasing)
            }
            #if DEBUG
            _ = Unmanaged.passRetained(self)
            #endif
        }
    }
}
