/// The timers of one run loop mode, in an indexed 4-ary min-heap ordered by (fire time, insertion order).
///
/// Schedule, cancel and reschedule are O(log n) with no linear scan (libev's design; CFRunLoop and
/// swift-nio cancel by scanning). Ties keep insertion order: a timer (re)inserted with a fire time
/// equal to others goes after them (runloop-reference C-T3, decisions.md 2).
///
/// The layout is that of an indexed priority queue (Sedgewick's `IndexMinPQ`). A timer in the queue
/// holds a *ticket* (recorded in the timer) that stays the same while it is here: the
/// ticket's row holds the timer, its insertion order and its position in the heap, and a heap entry
/// holds the fire time and the ticket. Sifting compares entries inside the heap array and writes the
/// new positions into the dense position column: it never touches a timer object, which at a
/// million timers is far out of cache (updating each moved timer stalled every level of a sift).
///
/// The queue owns one reference to each timer it holds, taken on insert and given back on remove.
/// It is only touched on the run loop's thread and never re-entrantly; its storage is plain buffers,
/// so the hot paths pay neither copy-on-write uniqueness checks nor dynamic exclusivity checks.
final class TimerQueue {
    /// A heap entry: the fire time, cached so that comparisons stay in the heap, and the ticket.
    struct Entry {
        var deadline: Int64
        var ticket: Int32
    }

    /// A row of the ticket table. A free ticket's row is stale and its position holds the next free ticket.
    private struct Row {
        var order: UInt64
        var timer: Unmanaged<Timer>
    }

    /// A timer due in this pass, copied out of its queue with its sort key (C-T3).
    struct Due {
        var deadline: Int64
        var order: UInt64
        /// Borrowed from the queue: retain what must outlive a removal.
        var reference: Unmanaged<Timer>

        var timer: Timer { reference.takeUnretainedValue() }

        func precedes(_ other: Due) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && order < other.order)
        }
    }

    /// Identifies this queue in the timers' tickets.
    let id: Int32
    /// How many timers the queue holds.
    @exclusivity(unchecked) private(set) var count = 0
    /// Capacity of all three buffers: the heap never holds more entries than there are tickets.
    private var capacity = 0
    /// Tickets handed out so far; each one below it is in use or on the free list.
    private var ticketCount: Int32 = 0
    /// The first free ticket, -1 if none.
    private var freeTicket: Int32 = -1
    @exclusivity(unchecked) private var heap: UnsafeMutablePointer<Entry>
    /// Ticket → index in `heap` (or, for a free ticket, the next free ticket).
    @exclusivity(unchecked) private var positions: UnsafeMutablePointer<Int32>
    /// Ticket → timer and insertion order.
    @exclusivity(unchecked) private var rows: UnsafeMutablePointer<Row>
    /// Reused depth-first stack for the O(k) walks below.
    @exclusivity(unchecked) private var stack: [Int] = []

    init(id: Int32) {
        self.id = id
        heap = .allocate(capacity: 0)
        positions = .allocate(capacity: 0)
        rows = .allocate(capacity: 0)
    }

    deinit {
        for index in 0..<count {
            let timer = rows[Int(heap[index].ticket)].timer
            timer.takeUnretainedValue().forgetTicket(in: id)
            timer.release()
        }
        heap.deallocate()
        positions.deallocate()
        rows.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The earliest fire time and its timer.
    var first: (deadline: Int64, timer: Timer)? {
        guard count > 0 else { return nil }
        return (heap[0].deadline, timer(at: 0))
    }

    func contains(_ timer: Timer) -> Bool {
        timer.ticket(in: id) != nil
    }

    /// Calls `body` with every timer in the queue, in no particular order.
    func forEachTimer(_ body: (Timer) -> Void) {
        for index in 0..<count { body(timer(at: index)) }
    }

    /// Adds `timer` with the given fire time; `order` must be unique and increasing per run loop.
    func insert(_ timer: Timer, deadline: Int64, order: UInt64) {
        let ticket = takeTicket()
        rows[Int(ticket)] = Row(order: order, timer: .passRetained(timer))
        timer.recordTicket(ticket, in: id)
        count += 1
        heap[count - 1] = Entry(deadline: deadline, ticket: ticket)
        siftUp(from: count - 1)
    }

    /// Removes `timer`; does nothing if it is not here.
    func remove(_ timer: Timer) {
        guard let ticket = timer.ticket(in: id) else { return }
        timer.forgetTicket(in: id)
        let slot = Int(ticket)
        let index = Int(positions[slot])
        count -= 1
        if index != count {
            heap[index] = heap[count]
            restore(at: index)
        }
        positions[slot] = freeTicket
        freeTicket = ticket
        // The queue's reference is `timer` itself: the row (likely out of cache) need not be read.
        Unmanaged.passUnretained(timer).release()
    }

    /// Moves `timer` to a new fire time; it goes after timers already due at that time.
    func update(_ timer: Timer, deadline: Int64, order: UInt64) {
        guard let ticket = timer.ticket(in: id).map(Int.init) else { return }
        rows[ticket].order = order
        let index = Int(positions[ticket])
        heap[index].deadline = deadline
        restore(at: index)
    }

    /// Appends every entry due at `now` (deadline ≤ now) to `due`, in no particular order.
    ///
    /// Visits only due entries and their direct children: O(k) for k due timers.
    func collectDue(atOrBefore now: Int64, into due: inout [Due]) {
        guard count > 0, heap[0].deadline <= now else { return }
        stack.removeAll(keepingCapacity: true)
        stack.append(0)
        while let index = stack.popLast() {
            let entry = heap[index]
            let row = rows[Int(entry.ticket)]
            due.append(Due(deadline: entry.deadline, order: row.order, reference: row.timer))
            let firstChild = 4 * index + 1
            let end = min(firstChild + 4, count)
            var child = firstChild
            while child < end {
                if heap[child].deadline <= now { stack.append(child) }
                child += 1
            }
        }
    }

    /// Narrows `hard` to the earliest "fire time + tolerance" among timers that are not firing,
    /// visiting only entries whose fire time is at or before `hard` (C-T9).
    func narrowHardDeadline(_ hard: inout Int64) {
        visit(atOrBefore: { hard }) { deadline, timer in
            guard !timer.isFiring else { return }
            let (limit, overflow) = deadline.addingReportingOverflow(timer.toleranceNanoseconds)
            hard = min(hard, overflow ? Int64.max : limit)
        }
    }

    /// Raises `wake` to the latest fire time at or before `hard` among timers that are not firing.
    func latestFireTime(atOrBefore hard: Int64, raising wake: inout Int64?) {
        visit(atOrBefore: { hard }) { deadline, timer in
            guard !timer.isFiring else { return }
            wake = max(wake ?? deadline, deadline)
        }
    }

    private func visit(atOrBefore bound: () -> Int64, _ body: (Int64, Timer) -> Void) {
        guard count > 0 else { return }
        stack.removeAll(keepingCapacity: true)
        stack.append(0)
        while let index = stack.popLast() {
            let deadline = heap[index].deadline
            guard deadline <= bound() else { continue }
            body(deadline, timer(at: index))
            let firstChild = 4 * index + 1
            var child = min(firstChild + 3, count - 1)
            while child >= firstChild {
                stack.append(child)
                child -= 1
            }
        }
    }

    private func timer(at index: Int) -> Timer {
        rows[Int(heap[index].ticket)].timer.takeUnretainedValue()
    }

    /// A free ticket, growing the buffers when every ticket is in use.
    private func takeTicket() -> Int32 {
        if freeTicket >= 0 {
            let ticket = freeTicket
            freeTicket = positions[Int(ticket)]
            return ticket
        }
        if Int(ticketCount) == capacity { grow() }
        ticketCount += 1
        return ticketCount - 1
    }

    private func grow() {
        let newCapacity = max(2 * capacity, 16)
        precondition(newCapacity <= Int(Int32.max), "RunLoop: more than \(Int32.max) timers in one mode")
        heap = moved(heap, count: count, to: newCapacity)
        positions = moved(positions, count: capacity, to: newCapacity)
        rows = moved(rows, count: capacity, to: newCapacity)
        capacity = newCapacity
    }

    private func moved<Element>(_ buffer: UnsafeMutablePointer<Element>, count: Int,
                                to newCapacity: Int) -> UnsafeMutablePointer<Element> {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        return grown
    }

    @inline(__always)
    private func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        lhs.deadline < rhs.deadline
            || (lhs.deadline == rhs.deadline && rows[Int(lhs.ticket)].order < rows[Int(rhs.ticket)].order)
    }

    /// Stores `entry` at `index` and records the position for its ticket.
    @inline(__always)
    private func place(_ entry: Entry, at index: Int) {
        heap[index] = entry
        positions[Int(entry.ticket)] = Int32(truncatingIfNeeded: index)
    }

    private func restore(at index: Int) {
        if index > 0 && precedes(heap[index], heap[(index - 1) / 4]) {
            siftUp(from: index)
        } else {
            siftDown(from: index)
        }
    }

    private func siftUp(from start: Int) {
        var index = start
        let moving = heap[index]
        while index > 0 {
            let parent = (index - 1) / 4
            guard precedes(moving, heap[parent]) else { break }
            place(heap[parent], at: index)
            index = parent
        }
        place(moving, at: index)
    }

    private func siftDown(from start: Int) {
        var index = start
        let moving = heap[index]
        while true {
            let firstChild = 4 * index + 1
            guard firstChild < count else { break }
            var best = firstChild
            var child = firstChild + 1
            let end = min(firstChild + 4, count)
            while child < end {
                if precedes(heap[child], heap[best]) { best = child }
                child += 1
            }
            guard precedes(heap[best], moving) else { break }
            place(heap[best], at: index)
            index = best
        }
        place(moving, at: index)
    }
}

extension TimerQueue {
    /// Whether the heap is in order and every timer's ticket leads back to its entry (for tests).
    var isConsistent: Bool {
        var tickets = Set<Int32>()
        for index in 0..<count {
            let entry = heap[index]
            guard tickets.insert(entry.ticket).inserted, positions[Int(entry.ticket)] == Int32(index),
                  timer(at: index).ticket(in: id) == entry.ticket else { return false }
            if index > 0 && precedes(entry, heap[(index - 1) / 4]) { return false }
        }
        return true
    }
}
