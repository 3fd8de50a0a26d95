import Synchronization

extension Timer {
    /// The part of a ``Timer`` that other threads may use: invalidate it or move its fire date.
    ///
    /// Each request is marshalled to the run loop that owns the timer and wakes it
    /// (seed T4, decisions.md 5); under ``RunLoop/WakeUpPolicy/strictCF`` it only re-arms the
    /// loop's sleep, as CF does (C-T7). An invalidation takes effect at once for firing purposes: the
    /// timer does not fire after ``invalidate()`` returns, even if its run loop is mid-pass.
    ///
    /// ```swift
    /// let handle = timer.handle
    /// DispatchQueue.global().async { handle.invalidate() }   // from any thread
    /// ```
    public struct Handle: Sendable {
        let shared: TimerShared

        /// Invalidates the timer on its owner's thread; idempotent.
        public func invalidate() {
            shared.requestInvalidation()
        }

        /// Moves the timer's fire date on its owner's thread (C-T7).
        public func setFireDate(_ fireDate: Instant) {
            shared.requestFireDate(fireDate)
        }

        /// Whether the timer is still valid, as far as this thread can see.
        public var isValid: Bool {
            !shared.invalidationRequested && !shared.isInvalid
        }
    }
}

/// State of a timer shared with other threads: requests waiting for the owner, the owner's handle,
/// and — bound to the owner's thread — the way back to the timer.
final class TimerShared: Sendable {
    /// The owning loop's handle and what applies the requests to the timer on that loop's thread;
    /// both `nil` while the timer is in no loop (requests then wait for it to join one).
    private struct Owner {
        let handle: RunLoop.Handle
        let apply: LoopBound<() -> Void>
    }

    private let invalidation = Atomic<Bool>(false)
    private let invalid = Atomic<Bool>(false)
    private let state = Mutex<(owner: Owner?, fireDate: Instant?)>((owner: nil, fireDate: nil))

    var invalidationRequested: Bool { invalidation.load(ordering: .acquiring) }
    var isInvalid: Bool { invalid.load(ordering: .acquiring) }

    func markInvalid() {
        invalid.store(true, ordering: .releasing)
    }

    /// Points requests at `timer`'s run loop; called on that loop's thread whenever the timer joins or leaves it.
    func setOwner(of timer: Timer) {
        let owner = timer.runLoop.map { loop in
            Owner(handle: loop.handle, apply: LoopBound({ [weak timer] in timer?.applyRemoteRequests() }, on: loop))
        }
        state.withLock { $0.owner = owner }
    }

    func takeRequestedFireDate() -> Instant? {
        state.withLock { state in
            defer { state.fireDate = nil }
            return state.fireDate
        }
    }

    func requestInvalidation() {
        guard !invalidation.exchange(true, ordering: .acquiringAndReleasing) else { return }
        notifyOwner()
    }

    func requestFireDate(_ fireDate: Instant) {
        state.withLock { $0.fireDate = fireDate }
        notifyOwner()
    }

    private func notifyOwner() {
        guard let owner = state.withLock({ $0.owner }) else { return }
        let apply = owner.apply
        owner.handle.rearm { _ in apply.value() }
    }
}
