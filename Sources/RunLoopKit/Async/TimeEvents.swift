/// The buffer between a timer on a run loop and the task iterating a time sequence: at most one
/// element waits, later ones are merged into it by the sequence's rule (rule C-X3). Finishing it —
/// the iteration ended or its task was cancelled — resumes a waiting `next()` with `nil` at once
/// and stops the timer on the loop's thread.
final class TimeEvents<Element: Sendable>: Sendable {
    private struct State {
        var pending: Element?
        var waiter: LoopContinuation<Element?, Never>?
        var isFinished = false
        /// Stops the timer; set once it started, taken by the first ``finish()``.
        var stop: LoopBound<() -> Void>?
    }

    private let state = LockedValue(State())
    private let handle: RunLoop.Handle
    private let merge: @Sendable (inout Element, Element) -> Void

    init(handle: RunLoop.Handle, merge: @escaping @Sendable (inout Element, Element) -> Void) {
        self.handle = handle
        self.merge = merge
    }

    /// Keeps `stop` for ``finish()``, or calls it at once if the iteration already ended; on the loop's thread.
    func started(stop: LoopBound<() -> Void>) {
        let finished = state.withLock { state in
            if !state.isFinished { state.stop = stop }
            return state.isFinished
        }
        if finished { stop.value() }
    }

    /// Hands `element` to a waiting `next()`, or keeps it, merged into one still waiting.
    func yield(_ element: Element) {
        let waiter = state.withLock { state -> LoopContinuation<Element?, Never>? in
            guard !state.isFinished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.pending == nil {
                state.pending = element
            } else {
                merge(&state.pending!, element)
            }
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// The next element, or `nil` once finished; cancelling the task finishes.
    nonisolated(nonsending) func next() async -> Element? {
        await withTaskCancellationHandler {
            await withLoopContinuation { continuation in
                let ready = state.withLock { state -> Element?? in
                    if let pending = state.pending {
                        state.pending = nil
                        return .some(pending)
                    }
                    if state.isFinished { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    /// Ends the sequence: no element follows, a waiting `next()` returns `nil`, the timer stops on
    /// the loop's thread. Idempotent.
    func finish() {
        let (waiter, stop) = state.withLock { state in
            state.isFinished = true
            state.pending = nil
            defer {
                state.waiter = nil
                state.stop = nil
            }
            return (state.waiter, state.stop)
        }
        waiter?.resume(returning: nil)
        guard let stop else { return }
        if handle.isOnLoopThread {
            stop.value()
        } else {
            handle.execute(wake: true) { _ in stop.value() }
        }
    }
}
