/// Where a timer is in one ``TimerQueue``: the queue's id and the timer's record in its slab.
struct QueueSlot {
    var queue: Int32
    var record: Int32

    /// No queue.
    static let none = QueueSlot(queue: -1, record: 0)
    /// What the record of a timer that a pass has taken off the heap holds (``TimerQueue`` invariant 3).
    static let parked: Int32 = -1
}
