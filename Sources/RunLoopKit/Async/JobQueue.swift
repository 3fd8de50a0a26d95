internal import CLinuxEvents
import Glibc
import Synchronization

/// The executor jobs waiting for a run loop, shared by its serial executor (actor jobs) and
/// its task executor (jobs of tasks that prefer the loop): rule C-X1.
///
/// A job enqueued on the loop's thread costs no system call; from another thread the first job of
/// a batch wakes the loop with one eventfd write, later ones none until the loop takes the batch.
final class JobQueue: Sendable {
    /// One waiting job, and whether it runs isolated to the loop's serial executor (an actor's);
    /// a job that is not runs on `taskExecutor`, by default the loop's task executor.
    /// The job keeps that executor alive until it runs (a RunLoopKitTesting `VirtualTime` scope that
    /// has ended).
    struct Job {
        let job: UnownedJob
        let isolated: Bool
        var taskExecutor: (any TaskExecutor)?
    }

    /// The jobs, oldest first, and whether the loop is gone.
    private struct State {
        var jobs: [Job] = []
        var isClosed = false
    }

    private let shared: LoopShared
    /// The loop, for ``RunLoop/Handle/submit(_:)``: read only on its thread (``withLoop(_:)`` checks).
    private let life: LoopLife
    private let state = LockedValue(State())
    /// Whether ``state`` has jobs; written under its lock, read without it by the loop's passes.
    private let pending = Atomic<Bool>(false)
    private let ownerThread: pthread_t
    let ownerThreadKernelID: Int32
    init(shared: LoopShared, life: LoopLife, ownerThread: pthread_t, ownerThreadKernelID: Int32) {
        self.shared = shared
        self.life = life
        self.ownerThread = ownerThread
        self.ownerThreadKernelID = ownerThreadKernelID
    }

    func add(_ job: UnownedJob, isolated: Bool, taskExecutor: (any TaskExecutor)? = nil) {
        let first = state.withLock { state -> Bool? in
            guard !state.isClosed else { return nil }
            state.jobs.append(Job(job: job, isolated: isolated, taskExecutor: taskExecutor))
            pending.store(true, ordering: .releasing)
            return state.jobs.count == 1
        }
        guard let first else {
            fatalError(
                "RunLoop.Executor: a job was enqueued on thread \(cle_thread_id()) for the run loop of thread "
                    + "\(ownerThreadKernelID), which no longer exists; a loop must outlive every actor bound to it")
        }
        // On the loop's thread the loop is awake and looks for jobs before it sleeps (C-X1).
        if first && !isOnLoopThread { shared.wakeUp() }
    }

    /// Whether the calling thread is the loop's.
    var isOnLoopThread: Bool {
        pthread_equal(ownerThread, pthread_self()) != 0
    }

    /// Stops the program unless the caller runs on the loop's thread, naming `call` and both threads.
    func checkOnLoopThread(_ call: String) {
        precondition(
            isOnLoopThread,
            "\(call): running on thread \(cle_thread_id()), but this executor runs its jobs on the run loop "
                + "of thread \(ownerThreadKernelID)")
    }

    /// Calls `body` with the loop; only on the loop's thread, while the loop exists.
    func withLoop<Result, Failure: Error>(_ body: (RunLoop) throws(Failure) -> Result) throws(Failure) -> Result {
        checkOnLoopThread("RunLoop.Handle.submit(_:)")
        guard let loop = life.loop else {
            fatalError("RunLoop.Executor: the run loop of thread \(ownerThreadKernelID) no longer exists")
        }
        return try body(loop)
    }

    /// Whether jobs wait for the loop.
    var hasPendingJobs: Bool {
        pending.load(ordering: .acquiring)
    }

    /// Swaps the waiting jobs into `jobs`, which must be empty; the loop reuses the buffer.
    func take(into jobs: inout [Job]) {
        state.withLock { state in
            swap(&jobs, &state.jobs)
            pending.store(false, ordering: .releasing)
        }
    }

    /// The loop is going away: later jobs trap. Queued ones, and the `taken` jobs the loop took but
    /// did not run, would never run — their tasks would never resume, and whatever awaits them
    /// would wait forever — so they stop the program with a message, in every build.
    func close(alsoDropping taken: Int) {
        let dropped = state.withLock { state in
            state.isClosed = true
            defer { state.jobs = [] }
            pending.store(false, ordering: .releasing)
            return state.jobs.count + taken
        }
        if dropped > 0 {
            fatalError(
                "RunLoop.Executor: the run loop of thread \(ownerThreadKernelID) went away with \(dropped) job(s) "
                    + "queued, which will never run; run the loop until its tasks and actors are done before it goes")
        }
    }
}
