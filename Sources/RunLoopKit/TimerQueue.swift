/// The timers of one run loop mode, in an indexed 4-ary min-heap ordered by (fire time, insertion order).
///
/// Every timer records its position in each queue it is in (``HeapSlots``), so schedule, cancel and
/// reschedule are O(log n) with no linear scan (libev's design; CFRunLoop and swift-nio cancel by
/// scanning). The fire time is cached in the entry so comparisons never touch the timer object.
/// Ties keep insertion order: a timer (re)inserted with a fire time equal to others goes after them
/// (runloop-reference C-T3, decisions.md 2).
///
/// The queue owns one reference to each timer it holds, taken on insert and given back on remove, so
/// moving entries around the heap costs no reference counting. Its storage is only touched on the
/// run loop's thread and never re-entrantly, so the dynamic exclusivity checks are turned off.
final class TimerQueue {
    struct Entry {
        var deadline: Int64
        var order: UInt64
        let reference: Unmanaged<Timer>

        /// The timer, valid while the entry is in a queue.
        @inline(__always)
        var timer: Timer { reference.takeUnretainedValue() }

        @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && order < other.order)
        }
    }

    /// Identifies this queue in the timers' ``HeapSlots``.
    let id: Int32
    @exclusivity(unchecked) private(set) var entries: [Entry] = []
    /// Reused depth-first stack for the O(k) walks below.
    @exclusivity(unchecked) private var stack: [Int] = []

    init(id: Int32) {
        self.id = id
    }

    deinit {
        for entry in entries { entry.reference.release() }
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// The earliest entry.
    var first: Entry? { entries.first }

    func contains(_ timer: Timer) -> Bool {
        timer.slots.index(in: id) != nil
    }

    /// Adds `timer` with the given fire time; `order` must be unique and increasing per run loop.
    func insert(_ timer: Timer, deadline: Int64, order: UInt64) {
        entries.append(Entry(deadline: deadline, order: order, reference: .passRetained(timer)))
        let index = entries.count - 1
        timer.slots.set(index, in: id)
        siftUp(from: index)
    }

    /// Removes `timer`; does nothing if it is not here.
    func remove(_ timer: Timer) {
        guard let index = timer.slots.index(in: id) else { return }
        timer.slots.remove(id)
        let removed = entries[index].reference
        let last = entries.count - 1
        if index != last {
            entries.swapAt(index, last)
            entries.removeLast()
            entries[index].timer.slots.set(index, in: id)
            restore(at: index)
        } else {
            entries.removeLast()
        }
        removed.release()
    }

    /// Moves `timer` to a new fire time; it goes after timers already due at that time.
    func update(_ timer: Timer, deadline: Int64, order: UInt64) {
        guard let index = timer.slots.index(in: id) else { return }
        entries[index].deadline = deadline
        entries[index].order = order
        restore(at: index)
    }

    /// Appends every entry due at `now` (deadline ≤ now) to `due`, in no particular order.
    ///
    /// Visits only due entries and their direct children: O(k) for k due timers. The entries in
    /// `due` borrow the queue's references: retain what must outlive a removal.
    func collectDue(atOrBefore now: Int64, into due: inout [Entry]) {
        guard let first = entries.first, first.deadline <= now else { return }
        stack.removeAll(keepingCapacity: true)
        stack.append(0)
        while let index = stack.popLast() {
            due.append(entries[index])
            let firstChild = 4 * index + 1
            let end = min(firstChild + 4, entries.count)
            var child = firstChild
            while child < end {
                if entries[child].deadline <= now { stack.append(child) }
                child += 1
            }
        }
    }

    /// Narrows `hard` to the earliest "fire time + tolerance" among timers that are not firing,
    /// visiting only entries whose fire time is at or before `hard` (C-T9).
    func narrowHardDeadline(_ hard: inout Int64) {
        visit(atOrBefore: { hard }) { entry in
            let timer = entry.timer
            guard !timer.isFiring else { return }
            let (limit, overflow) = entry.deadline.addingReportingOverflow(timer.toleranceNanoseconds)
            hard = min(hard, overflow ? Int64.max : limit)
        }
    }

    /// Raises `wake` to the latest fire time at or before `hard` among timers that are not firing.
    func latestFireTime(atOrBefore hard: Int64, raising wake: inout Int64?) {
        visit(atOrBefore: { hard }) { entry in
            guard !entry.timer.isFiring else { return }
            wake = max(wake ?? entry.deadline, entry.deadline)
        }
    }

    private func visit(atOrBefore bound: () -> Int64, _ body: (Entry) -> Void) {
        guard !entries.isEmpty else { return }
        stack.removeAll(keepingCapacity: true)
        stack.append(0)
        while let index = stack.popLast() {
            let entry = entries[index]
            guard entry.deadline <= bound() else { continue }
            body(entry)
            let firstChild = 4 * index + 1
            var child = min(firstChild + 3, entries.count - 1)
            while child >= firstChild {
                stack.append(child)
                child -= 1
            }
        }
    }

    private func restore(at index: Int) {
        if index > 0 && entries[index].precedes(entries[(index - 1) / 4]) {
            siftUp(from: index)
        } else {
            siftDown(from: index)
        }
    }

    private func siftUp(from start: Int) {
        var index = start
        let moving = entries[index]
        while index > 0 {
            let parent = (index - 1) / 4
            guard moving.precedes(entries[parent]) else { break }
            entries[index] = entries[parent]
            entries[index].timer.slots.set(index, in: id)
            index = parent
        }
        entries[index] = moving
        moving.timer.slots.set(index, in: id)
    }

    private func siftDown(from start: Int) {
        var index = start
        let moving = entries[index]
        let count = entries.count
        while true {
            let firstChild = 4 * index + 1
            guard firstChild < count else { break }
            var best = firstChild
            var child = firstChild + 1
            let end = min(firstChild + 4, count)
            while child < end {
                if entries[child].precedes(entries[best]) { best = child }
                child += 1
            }
            guard entries[best].precedes(moving) else { break }
            entries[index] = entries[best]
            entries[index].timer.slots.set(index, in: id)
            index = best
        }
        entries[index] = moving
        moving.timer.slots.set(index, in: id)
    }
}

/// Where a timer sits in each ``TimerQueue`` it belongs to.
///
/// Two positions are stored inline (a timer is usually in one or two modes); more spill into a dictionary.
struct HeapSlots {
    private var firstQueue: Int32 = -1
    private var firstIndex: Int32 = 0
    private var secondQueue: Int32 = -1
    private var secondIndex: Int32 = 0
    private var more: [Int32: Int32]?

    var isEmpty: Bool { firstQueue < 0 && secondQueue < 0 && (more?.isEmpty ?? true) }

    /// The ids of every queue the timer is in.
    var queueIDs: [Int32] {
        var ids: [Int32] = []
        forEachQueueID { ids.append($0) }
        return ids
    }

    /// Calls `body` with the id of every queue the timer is in, without allocating for the usual one or two.
    @inline(__always)
    func forEachQueueID(_ body: (Int32) -> Void) {
        if firstQueue >= 0 { body(firstQueue) }
        if secondQueue >= 0 { body(secondQueue) }
        if let more { for id in more.keys.sorted() { body(id) } }
    }

    @inline(__always)
    func index(in queue: Int32) -> Int? {
        if firstQueue == queue { return Int(firstIndex) }
        if secondQueue == queue { return Int(secondIndex) }
        return more?[queue].map(Int.init)
    }

    @inline(__always)
    mutating func set(_ index: Int, in queue: Int32) {
        if firstQueue == queue || (firstQueue < 0 && secondQueue != queue && more?[queue] == nil) {
            firstQueue = queue
            firstIndex = Int32(index)
        } else if secondQueue == queue || (secondQueue < 0 && more?[queue] == nil) {
            secondQueue = queue
            secondIndex = Int32(index)
        } else {
            var spilled = more ?? [:]
            spilled[queue] = Int32(index)
            more = spilled
        }
    }

    mutating func remove(_ queue: Int32) {
        if firstQueue == queue {
            firstQueue = -1
        } else if secondQueue == queue {
            secondQueue = -1
        } else {
            more?[queue] = nil
        }
    }
}
