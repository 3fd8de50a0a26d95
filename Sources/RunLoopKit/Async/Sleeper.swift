/// One `await` on a run loop's clock: a one-shot ``Timer`` in the loop's heap that resumes a
/// continuation when it fires, or — cancelled first — is invalidated while the sleeper resumes at
/// once with `CancellationError` (rule C-X2).
final class Sleeper: Sendable {
    private enum State {
        case starting
        case waiting(UnsafeContinuation<Void, any Error>)
        case cancelled
        case finished
    }

    private let state = LockedValue(State.starting)
    /// The timer while it is scheduled. Safe without a lock: set by ``schedule(on:until:tolerance:inModes:)``
    /// and cleared by ``fire()`` and ``invalidateTimer()``, which all run on the loop's thread.
    nonisolated(unsafe) private var timer: Timer?

    /// Keeps `continuation` for the timer; resumes it at once with `CancellationError` if the
    /// sleep was cancelled before it started.
    func start(_ continuation: UnsafeContinuation<Void, any Error>) {
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
    /// invalidated on the loop's thread (``invalidateTimer()``).
    func cancel(on handle: RunLoop.Handle) {
        let continuation = take(setting: .cancelled)
        continuation?.resume(throwing: CancellationError())
        if handle.isOnLoopThread {
            invalidateTimer()
        } else {
            handle.execute(wake: true) { _ in self.invalidateTimer() }
        }
    }

    private func invalidateTimer() {
        timer?.invalidate()
        timer = nil
    }

    /// Moves to `next` and returns the continuation if the sleeper was still waiting (or starting).
    private func take(setting next: State) -> UnsafeContinuation<Void, any Error>? {
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
