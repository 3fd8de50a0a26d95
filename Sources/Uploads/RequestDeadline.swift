import Synchronization

/// Decides, once, whether a request finished or ran out of time first.
///
/// Foundation on Linux truncates request timeouts to whole seconds (0.5 s becomes an
/// immediate failure), so ``HTTPSink`` keeps its own deadline: a timer that cancels the task.
/// Whichever of the timer and the task's completion comes first wins; the other learns it
/// lost and does nothing more.
final class RequestDeadline: Sendable {
    private enum State {
        case running
        case finished
        case expired
    }

    private let state = Mutex(State.running)

    /// Called by the timer: true if the request was still running and now counts as timed out.
    func expire() -> Bool {
        state.withLock { state in
            guard case .running = state else { return false }
            state = .expired
            return true
        }
    }

    /// Called by the task's completion: true if the deadline passed first.
    func finish() -> Bool {
        state.withLock { state in
            if case .expired = state { return true }
            state = .finished
            return false
        }
    }
}
