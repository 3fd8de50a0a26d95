/// Everything registered in one mode of one run loop (runloop-reference C-M1).
final class ModeState {
    let mode: RunLoop.Mode
    let timers: TimerQueue
    // What a pass reads every time is only touched on the loop's thread, with no access spanning a
    // callout: the dynamic exclusivity checks of these fields are off.
    /// The timeout sets that fire in this mode, in the order they were made.
    @exclusivity(unchecked) var timeoutSets: [TimeoutSet] = []
    /// Sorted by order; equal orders keep the order they were added in (C-R8).
    private(set) var observers: [RunLoop.Observer] = []
    /// The union of the observers' activities, to skip notifications nobody wants.
    @exclusivity(unchecked) private(set) var observerMask: RunLoop.Activity = []
    @exclusivity(unchecked) var sources: [RunLoop.Source] = []
    /// One source per descriptor.
    @exclusivity(unchecked) var descriptorSources: [Int32: RunLoop.FileDescriptorSource] = [:]
    /// This mode's epoll set, created when the mode first waits (-1 until then).
    var epollDescriptor: Int32 = -1
    /// Whether the main queue's eventfd is in this mode's epoll set: the mode is common on ``RunLoop/main`` (C-M12).
    var watchesMainQueue = false

    /// Calls `body` with each timeout set of the mode, in order, over a snapshot of the list (a
    /// callout may invalidate a set). An index loop: a `for`-`in` loop over the array allocates a
    /// coroutine frame per element in debug builds (the unspecialised `Collection.subscript.read`),
    /// and the timer pass and the wait must allocate nothing in the tests either.
    @inline(__always)
    func forEachTimeoutSet(_ body: (TimeoutSet) -> Void) {
        let sets = timeoutSets
        var index = 0
        while index < sets.count {
            body(sets[index])
            index += 1
        }
    }

    /// Whether a timeout set of the mode has a timeout scheduled.
    var hasTimeouts: Bool {
        var scheduled = false
        forEachTimeoutSet { scheduled = scheduled || !$0.isEmpty }
        return scheduled
    }

    init(mode: RunLoop.Mode, queueID: Int32) {
        self.mode = mode
        timers = TimerQueue(id: queueID)
    }

    func contains(_ observer: RunLoop.Observer) -> Bool {
        observers.contains { $0 === observer }
    }

    func insert(_ observer: RunLoop.Observer) {
        let index = observers.firstIndex { $0.order > observer.order } ?? observers.count
        observers.insert(observer, at: index)
        observerMask.formUnion(observer.activities)
    }

    func remove(_ observer: RunLoop.Observer) {
        observers.removeAll { $0 === observer }
        observerMask = observers.reduce(into: []) { $0.formUnion($1.activities) }
    }
}
