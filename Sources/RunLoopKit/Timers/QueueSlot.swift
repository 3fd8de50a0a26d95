/// Where a timer is in one ``TimerQueue``: the queue's id and the timer's index in its heap.
struct QueueSlot {
    var queue: Int32
    var index: Int32

    /// No queue.
    static let none = QueueSlot(queue: -1, index: 0)
    /// The index of a timer that a pass has taken off the heap (``TimerQueue`` invariant 3).
    static let parked: Int32 = -1
}
