internal import CLinuxEvents
import Glibc

extension RunLoop {
    /// The run loop of the process's main thread, created on first use; on the main thread it is
    /// also ``current`` (unless ``withCurrent(_:_:)`` put another loop in its place).
    ///
    /// It drains libdispatch's main queue whenever it runs a common mode (C-M12), as CoreFoundation
    /// does: `DispatchQueue.main.async` work and dispatch timers on the main queue run on it, wait
    /// while it runs a mode that is not common (a custom modal mode, say) and catch up when it is back
    /// in a common one. A run of a common mode on it never finishes for want of items, because the
    /// main queue may always get work (C-M8's main-thread exception).
    ///
    /// Only the main thread may use it; the program stops with a message on any other thread.
    /// Other threads reach the main thread with `DispatchQueue.main.async` or through the loop's
    /// ``handle``, obtained on the main thread.
    ///
    /// A process out of descriptors stops with a message here; ``makeMain(timeSource:)`` reports that
    /// as an error instead, and is how a program gets its main loop on a ``TimeControl``.
    @available(*, noasync)
    public static var main: RunLoop {
        do {
            return try makeMain(timeSource: .system)
        } catch {
            fatalError(
                "RunLoop.main: cannot create the main run loop: \(error); free descriptors or raise the limit (ulimit -n)"
            )
        }
    }

    /// ``main``, created on first use with `timeSource` (a program that wants its main loop on a
    /// ``TimeControl`` asks for it this way before anything else uses ``main``); once it exists it
    /// is returned as it is, on the clock it was made with.
    ///
    /// A failed system call (out of descriptors: `EMFILE`) is reported as a ``SystemCallError``
    /// instead of stopping the program. Besides the loop's own descriptors it checks that one is
    /// free for the eventfd libdispatch opens for the main queue, since libdispatch stops the process
    /// itself when it cannot open it.
    @available(*, noasync)
    public static func makeMain(timeSource: TimeSource) throws(SystemCallError) -> RunLoop {
        precondition(
            cle_is_main_thread() != 0,
            "RunLoop.main used on thread \(cle_thread_id()); it belongs to the main thread (\(getpid())): "
                + "reach it with DispatchQueue.main.async or its handle")
        if let loop = MainRunLoop.loop { return loop }
        let loop = try RunLoop.make(timeSource: timeSource)
        close(try SystemCall.check("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) })
        loop.drainMainQueue()
        MainRunLoop.loop = loop
        return loop
    }

    /// Whether this loop drains libdispatch's main queue (it is ``main``).
    public var drainsMainQueue: Bool {
        waiter.mainQueueDescriptor >= 0
    }

    /// Starts watching the main queue's eventfd in every common mode, and in each mode made common later.
    private func drainMainQueue() {
        waiter.mainQueueDescriptor = _dispatch_get_main_queue_handle_4CF()
        for mode in commonModes { watchMainQueue(in: modeState(for: mode)) }
    }

    /// Watches the main queue in `state`, a mode that has just become common.
    func watchMainQueue(in state: ModeState) {
        guard drainsMainQueue, !state.watchesMainQueue else { return }
        state.watchesMainQueue = true
        waiter.watchMainQueue(in: state)
    }

    /// Whether `state` has the main queue to drain: it watches the queue, and this is not a run nested
    /// inside a main-queue block (CF's `libdispatchQSafe`; libdispatch does not drain re-entrantly).
    func drainsMainQueue(in state: ModeState) -> Bool {
        state.watchesMainQueue && !isDrainingMainQueue
    }

    /// Runs the work queued on the main queue if its eventfd was signalled; returns whether it did,
    /// which counts as a handled source (CF's `sourceHandledThisLoop`).
    func serviceMainQueue(in state: ModeState) -> Bool {
        guard waiter.mainQueueSignalled, drainsMainQueue(in: state) else { return false }
        waiter.mainQueueSignalled = false
        isDrainingMainQueue = true
        defer { isDrainingMainQueue = false }
        _dispatch_main_queue_callback_4CF(nil)
        return true
    }
}

/// The storage behind ``RunLoop/main``.
enum MainRunLoop {
    /// Touched only by ``RunLoop/main``, after its check that it runs on the main thread.
    nonisolated(unsafe) static var loop: RunLoop?
}
