/// One `await` on a run loop's clock: a one-shot ``Timer`` in the loop's heap that resumes a
/// continuation when it fires, or — cancelled first — is invalidated while the sleeper resumes at
/// once with `CancellationError` (rule C-X2).
final class Sleeper: Sendable {
    private enum State {
        case starting
        case waiting(LoopContinuation<Void, any Error>)
        case cancelled
        case finished
    }

    private let state = LockedValue(State.starting)
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

    /// Where the sleep was called, for ``RunLoop/registrations(inMode:)``; `nil` for a clock's sleep.
    private let site: (file: StaticString, line: UInt)?

    /// A sleeper of the loop behind `handle`, called from `file` and `line` when known.
    init(handle: RunLoop.Handle, file: StaticString? = nil, line: UInt = 0) {
        self.handle = handle
        site = file.map { ($0, line) }
    }

    private func checkOnLoopThread() {
        #if DEBUG
        handle.executor.jobs.checkOnLoopThread("Sleeper.timer")
        #endif
    }

    /// Keeps `continuation` for the timer; resumes it at once with `CancellationError` if the
    /// sleep was cancelled before it started.
    func start(_ continuation: LoopContinuation<Void, any Error>) {
        let cancelled = state.withLock { state in
            guard case .starting = state else { return true }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    /// Adds the sleeper's one-shot timer to `modes` of `loop`, on the loop's thread; nothing if the
    /// sleep was cancelled meanwhile.
    func schedule(on loop: RunLoop, until deadline: Instant, tolerance: Duration?, inModes modes: [RunLoop.Mode]) {
        guard case .waiting = state.withLock({ $0 }) else { return }
        let timer = Timer(fireAt: deadline, interval: .zero, repeats: false) { _ in self.fire() }
        timer.kind = .sleeper
        if let site, CreationSite.isRecording { timer.setCreationSite(file: site.file, line: site.line) }
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
    private func take(setting next: State) -> LoopContinuation<Void, any Error>? {
        state.withLock { state in
            switch state {
            case .starting:
                state = next
                return nil
            case .waiting(let continuation):
                state = next
                return continuation
            case .cancelled, .finished:
                return nil
            }
        }
    }
}
