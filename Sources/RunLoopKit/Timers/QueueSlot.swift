/// Where a timer is in one ``TimerQueue``: the queue's id and the slot of the timer's record.
struct QueueSlot {
    var queue: Int32
    var record: Int32

    /// No queue.
    static let none = QueueSlot(queue: -1, record: 0)
}
