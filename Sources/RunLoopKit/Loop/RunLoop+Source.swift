import Synchronization

extension RunLoop {
    /// A custom input source that runs when signalled: a version-0 `CFRunLoopSource`.
    ///
    /// ``signal()`` marks it ready; the next pass in one of its modes runs its `perform` closure once. Other
    /// threads signal through ``signalHandle``, which also wakes the loop. Handling a source counts
    /// as "a source handled" for ``RunLoop/run(mode:until:returnAfterSourceHandled:)`` (C-R2, C-R4).
    /// Signalled sources run in ascending `order` (the initialiser's), then in the order they were
    /// signalled (C-R11).
    ///
    /// ```swift
    /// let source = RunLoop.Source { print("signalled") }
    /// loop.add(source, forMode: .default)
    /// let signal = source.signalHandle   // hand to another thread
    /// signal.signal()
    /// ```
    public final class Source {
        /// Position among signalled sources; lower runs first.
        let order: Int
        private var perform: (() -> Void)?
        let signalState: SourceSignal
        private var validity = true
        /// The loop the item is in; not owned, so an item that outlives its loop belongs to none.
        @LoopReference var runLoop: RunLoop?
        var isCommonItem = false

        /// Creates a source that calls `perform` on its run loop's thread each time it is handled.
        public init(order: Int = 0, perform: @escaping () -> Void) {
            self.order = order
            self.perform = perform
            signalState = SourceSignal()
        }

        /// Whether the source can still run.
        public var isValid: Bool { validity }

        /// Whether the source is valid and signalled: a pass would run it.
        var isSignalled: Bool { validity && signalState.signalStamp != 0 }

        /// Marks the source ready to run at the loop's next pass; does not wake the loop (as in CF).
        public func signal() {
            signalState.signal()
        }

        /// A `Sendable` handle that signals the source and wakes its run loop from any thread.
        public var signalHandle: SignalHandle {
            SignalHandle(state: signalState)
        }

        /// Removes the source from every mode and releases its closure; idempotent.
        public func invalidate() {
            guard validity else { return }
            runLoop?.checkThread("Source.invalidate()")
            validity = false
            runLoop?.detach(self)
            perform = nil
        }

        func handle() {
            guard validity, let perform else { return }
            perform()
        }

        func ownerChanged() {
            signalState.setOwner(runLoop?.handle)
        }
    }

    /// Signals a ``Source`` from any thread and wakes its run loop.
    public struct SignalHandle: Sendable {
        let state: SourceSignal

        /// Marks the source ready and wakes the run loop it is in.
        public func signal() {
            state.signal()
            state.wakeOwner()
        }
    }
}

/// The signalled state of a source, shared with other threads.
final class SourceSignal: Sendable {
    private static let stamps = Atomic<UInt64>(0)
    /// 0 when not signalled, else a stamp that orders signals (C-R11).
    private let stamp = Atomic<UInt64>(0)
    private let owner = Mutex<RunLoop.Handle?>(nil)

    var signalStamp: UInt64 { stamp.load(ordering: .acquiring) }

    func signal() {
        guard stamp.load(ordering: .relaxed) == 0 else { return }
        let next = SourceSignal.stamps.add(1, ordering: .relaxed).newValue
        _ = stamp.compareExchange(expected: 0, desired: next, ordering: .acquiringAndReleasing)
    }

    func clear() {
        stamp.store(0, ordering: .releasing)
    }

    func setOwner(_ handle: RunLoop.Handle?) {
        owner.withLock { $0 = handle }
    }

    func wakeOwner() {
        owner.withLock { $0 }?.wakeUp()
    }
}
