import Synchronization

/// One `await` on a run loop's clock: a one-shot ``Timer`` in the loop's heap that resumes a
/// continuation when it fires, or — cancelled first — is invalidated while the sleeper resumes at
/// once with `CancellationError` (rule C-X2).
final class Sleeper: Sendable {
    /// Where the sleep is; it moves on once, from `starting` or `waiting` to `cancelled` or
    /// `finished`, by a compare-and-exchange, so exactly one of ``start(_:)``, ``fire()`` and
    /// ``cancel()`` gets the continuation. An atomic rather than a lock: no allocation of its own,
    /// and no lock taken at each step of a sleeper's life.
    private enum Phase: UInt8, AtomicRepresentable {
        case starting
        case waiting
        case cancelled
        case finished
    }

    private let phase = Atomic(Phase.starting)
    /// The continuation, written by ``start(_:)`` before it publishes `waiting` (releasing) and
    /// read only by whoever moves the phase on from `waiting` (acquiring). Safe without a lock for
    /// that reason.
    nonisolated(unsafe) private var continuation: LoopContinuation<Void, any Error>?
    private let handle: RunLoop.Handle
    /// The timer while it is scheduled. Safe without a lock: set by ``schedule(on:until:tolerance:inModes:)``
    /// and cleared by ``fire()`` and ``invalidateTimer()``, which all run on the loop's thread — in
    /// debug builds ``timer`` checks that at every access.
    nonisolated(unsafe) private var scheduledTimer: Timer?

    private var timer: Timer? {
        get {
            checkOnLoopThread()
            return scheduledTimer
        }
        set {
            checkOnLoopThread()
            scheduledTimer = newValue
        }
    }

    /// Where the sleep was called, for its timer's ``Timer/creationSite``; `nil` for a clock's sleep.
    private let site: (file: StaticString, line: UInt)?

    /// A sleeper of the loop behind `handle`, called from `file` and `line` when known.
    init(handle: RunLoop.Handle, file: StaticString? = nil, line: UInt = 0) {
        self.handle = handle
        site = file.map { ($0, line) }
    }

    private func checkOnLoopThread() {
        #if DEBUG
        handle.jobs.checkOnLoopThread("Sleeper.timer")
        #endif
    }

    /// Keeps `continuation` for the timer; resumes it at once with `CancellationError` if the
    /// sleep was cancelled before it started.
    func start(_ continuation: LoopContinuation<Void, any Error>) {
        self.continuation = continuation
        let waiting = phase.compareExchange(
            expected: .starting, desired: .waiting, successOrdering: .releasing, failureOrdering: .relaxed
        ).exchanged
        if !waiting { continuation.resume(throwing: CancellationError()) }
    }

    /// Adds the sleeper's one-shot timer to `modes` of `loop`, on the loop's thread; nothing if the
    /// sleep was cancelled meanwhile.
    func schedule(on loop: RunLoop, until deadline: Instant, tolerance: Duration?, inModes modes: [RunLoop.Mode]) {
        guard phase.load(ordering: .relaxed) == .waiting else { return }
        let timer = Timer(fireAt: deadline, interval: .zero, repeats: false) { _ in self.fire() }
        timer.isSleeper = true
        if let site, VirtualClock.anyExists { timer.setCreationSite(file: site.file, line: site.line) }
        if let tolerance { timer.tolerance = tolerance }
        for mode in modes { loop.add(timer, forMode: mode) }
        self.timer = timer
    }

    /// The timer fired: the sleeper resumes (its task runs when its executor next runs jobs).
    private func fire() {
        timer = nil
        guard let continuation = take(setting: .finished) else { return }
        continuation.resume()
    }

    /// Resumes the sleeper at once with `CancellationError`, unless it has finished; the timer is
    /// invalidated on the loop's thread (``invalidateTimer()``) before a task on the loop resumes:
    /// at once on that thread, and from another thread by a message the loop handles before it
    /// runs the jobs queued after it — code on the loop right after the resumption never sees it.
    func cancel() {
        let continuation = take(setting: .cancelled)
        if handle.isOnLoopThread {
            invalidateTimer()
        } else {
            handle.execute(wake: true) { _ in self.invalidateTimer() }
        }
        continuation?.resume(throwing: CancellationError())
    }

    private func invalidateTimer() {
        timer?.invalidate()
        timer = nil
    }

    /// Moves to `next` and returns the continuation if the sleeper was still waiting (or starting).
    private func take(setting next: Phase) -> LoopContinuation<Void, any Error>? {
        var current = phase.load(ordering: .relaxed)
        while current == .starting || current == .waiting {
            let (exchanged, original) = phase.compareExchange(
                expected: current, desired: next, successOrdering: .acquiring, failureOrdering: .relaxed)
            if exchanged { return current == .waiting ? continuation : nil }
            current = original
        }
        return nil
    }
}
