/// A thing a run loop registers in its modes: a ``Timer`` (and through it a ``DisplayLink``), an
/// ``RunLoop/Observer``, a ``RunLoop/Source`` or a ``RunLoop/FileDescriptorSource``.
///
/// The loop adds, removes and detaches every kind through one generic path
/// (`RunLoop+Registration.swift`): ownership (one loop per item, C-T2), the common pseudo-mode and
/// its items (C-M4…C-M6), and undoing a half-done add. Each kind only says how it sits in one mode.
protocol RunLoopItem: AnyObject {
    /// What registering in a mode can fail with: `Never`, except for descriptors the kernel refuses.
    associatedtype RegistrationError: Error

    /// The loop the item is in; not owned, so an item that outlives its loop belongs to none.
    var runLoop: RunLoop? { get set }
    /// Whether ``runLoop`` is set, told without loading the reference where the item can.
    var isInRunLoop: Bool { get }
    /// Whether the item is one of its loop's common items (C-M4).
    var isCommonItem: Bool { get set }

    /// Whether the item is in `state`.
    func isRegistered(in state: ModeState) -> Bool
    /// Puts the item into `state`, where it is not yet; `loop` already owns it.
    func register(in state: ModeState, of loop: RunLoop) throws(RegistrationError)
    /// Takes the item out of `state`, where it is.
    func unregister(from state: ModeState, of loop: RunLoop)
    /// Whether the item is in any mode of `loop`.
    func isRegistered(anywhereIn loop: RunLoop) -> Bool
    /// Takes the item out of every mode of `loop`.
    func unregisterEverywhere(of loop: RunLoop)
    /// The item has just joined `loop` (``runLoop`` is set), before its first ``register(in:of:)``.
    func didJoin(_ loop: RunLoop)
    /// The item has just left its loop (``runLoop`` is `nil`).
    func didLeave()
}

extension RunLoopItem {
    var isInRunLoop: Bool { runLoop != nil }

    func isRegistered(anywhereIn loop: RunLoop) -> Bool {
        loop.statesByQueueID.contains { isRegistered(in: $0) }
    }

    func unregisterEverywhere(of loop: RunLoop) {
        for state in loop.statesByQueueID where isRegistered(in: state) { unregister(from: state, of: loop) }
    }

    func didJoin(_ loop: RunLoop) {}
    func didLeave() {}
}

extension Timer: RunLoopItem {
    typealias RegistrationError = Never

    func isRegistered(in state: ModeState) -> Bool { state.timers.contains(self) }

    func register(in state: ModeState, of loop: RunLoop) {
        state.timers.insert(self, deadline: fireNanoseconds, order: loop.nextInsertionOrder())
    }

    func unregister(from state: ModeState, of loop: RunLoop) { state.timers.remove(self) }

    /// Its queue slots say where it is, without a look at every mode.
    func isRegistered(anywhereIn loop: RunLoop) -> Bool { isQueued }

    /// A timer is in a loop exactly while it is in one of its queues (the loop adopts it just
    /// before its first insertion and lets it go after its last removal): told by its first slot,
    /// without loading the unowned reference, which costs a retain and a release of the loop
    /// (about 2 % of the profile of scheduling 1M timers). Checked in debug builds.
    var isInRunLoop: Bool {
        assert(isQueued == (runLoop != nil), "Timer: in a queue without a loop, or in a loop without a queue")
        return isQueued
    }

    func unregisterEverywhere(of loop: RunLoop) {
        forEachQueueID { queueID in loop.withQueue(withID: queueID) { $0.remove(self) } }
    }

    func didJoin(_ loop: RunLoop) {
        ownerChanged()
        // C-T1: a fire date in the past means "now" when the timer joins the loop.
        fireNanoseconds = loop.notBeforeNow(fireNanoseconds)
    }

    func didLeave() {
        ownerChanged()
        leftLoop()
    }
}

extension RunLoop.Observer: RunLoopItem {
    typealias RegistrationError = Never

    func isRegistered(in state: ModeState) -> Bool { state.contains(self) }
    func register(in state: ModeState, of loop: RunLoop) { state.insert(self) }
    func unregister(from state: ModeState, of loop: RunLoop) { state.remove(self) }
}

extension RunLoop.Source: RunLoopItem {
    typealias RegistrationError = Never

    func isRegistered(in state: ModeState) -> Bool { state.sources.contains { $0 === self } }
    func register(in state: ModeState, of loop: RunLoop) { state.sources.append(self) }
    func unregister(from state: ModeState, of loop: RunLoop) { state.sources.removeAll { $0 === self } }
    func didJoin(_ loop: RunLoop) { ownerChanged() }
    func didLeave() { ownerChanged() }
}

extension RunLoop.FileDescriptorSource: RunLoopItem {
    typealias RegistrationError = SystemCallError

    func isRegistered(in state: ModeState) -> Bool { state.descriptorSources[fileDescriptor] === self }

    /// Adds the descriptor to the mode's epoll set; throws when epoll refuses it.
    func register(in state: ModeState, of loop: RunLoop) throws(SystemCallError) {
        precondition(
            state.descriptorSources[fileDescriptor] == nil,
            "RunLoop: descriptor \(fileDescriptor) already has a source in mode \(state.mode)")
        try loop.waiter.register(fileDescriptor, in: state)
        state.descriptorSources[fileDescriptor] = self
    }

    func unregister(from state: ModeState, of loop: RunLoop) {
        state.descriptorSources[fileDescriptor] = nil
        loop.waiter.unregister(fileDescriptor, in: state)
    }
}
