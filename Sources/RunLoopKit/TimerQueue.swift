/// The timers of one run loop mode, ordered by (fire time, insertion order).
///
/// Schedule, cancel and reschedule are O(log n) at worst, with no linear scan (CFRunLoop and
/// swift-nio cancel by scanning). Ties keep insertion order: a timer (re)inserted with a fire time
/// equal to others goes after them (runloop-reference C-T3, decisions.md 2).
///
/// The timers due before a *horizon* are in an indexed 4-ary min-heap (libev's design); the later
/// ones wait, unordered, in a plain list until the horizon moves past them (a two-rung ladder
/// queue), where adding and cancelling take O(1). The horizon is chosen so that the heap stays near
/// ``defaultHeapTarget`` timers, a size whose sifts stay in cache. A queue that never grows past
/// twice the target is a plain heap: its horizon is infinite and the list empty.
///
/// The layout is that of an indexed priority queue (Sedgewick's `IndexMinPQ`). A timer in the queue
/// holds a *ticket* (recorded in the timer) that stays the same while it is here: the ticket's row
/// holds the timer and its insertion order, a dense column holds its position, and an entry holds the
/// fire time and the ticket. Sifting compares entries inside the heap array and writes the new
/// positions into the dense column: it never touches a timer object.
///
/// The queue owns one reference to each timer it holds, taken on insert and given back on remove.
/// It is only touched on the run loop's thread and never re-entrantly; its storage is plain buffers,
/// so the hot paths pay neither copy-on-write uniqueness checks nor dynamic exclusivity checks.
final class TimerQueue {
    /// A queue entry: the fire time, cached so that comparisons stay in the array, and the ticket.
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

    /// The heap size a large queue keeps near: 16 384 entries of 16 bytes sift in a core's L2 cache.
    static let defaultHeapTarget = 16_384

    /// Identifies this queue in the timers' tickets.
    let id: Int32
    private let heapTarget: Int
    /// Timers due before it are in the heap, the others in `later`; `Int64.max` while `later` is empty.
    private var horizon = Int64.max
    /// The heap size above which the heap's later timers move out to `later`.
    private var splitThreshold: Int
    @exclusivity(unchecked) private var heapCount = 0
    private var heapCapacity = 0
    @exclusivity(unchecked) private var heap: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var laterCount = 0
    private var laterCapacity = 0
    @exclusivity(unchecked) private var later: UnsafeMutablePointer<Entry>
    private var ticketCapacity = 0
    /// Tickets handed out so far; each one below it is in use or on the free list.
    private var ticketCount: Int32 = 0
    /// The first free ticket, -1 if none.
    private var freeTicket: Int32 = -1
    /// Ticket → index in `heap`, or `~index` (negative) in `later`; for a free ticket, the next free one.
    @exclusivity(unchecked) private var positions: UnsafeMutablePointer<Int32>
    /// Ticket → timer and insertion order.
    @exclusivity(unchecked) private var rows: UnsafeMutablePointer<Row>
    /// Reused depth-first stack for the O(k) walks below.
    @exclusivity(unchecked) private var stack: [Int] = []
    #if DEBUG
    /// Mutations since the last full ``isConsistent`` check (debug builds only).
    private var mutationsSinceCheck = 0
    #endif

    /// An empty queue; `heapTarget` is for tests, which use tiny values to exercise both rungs.
    init(id: Int32, heapTarget: Int = TimerQueue.defaultHeapTarget) {
        self.id = id
        self.heapTarget = heapTarget
        splitThreshold = 2 * heapTarget
        heap = .allocate(capacity: 0)
        later = .allocate(capacity: 0)
        positions = .allocate(capacity: 0)
        rows = .allocate(capacity: 0)
    }

    deinit {
        forEachTimer { timer in
            timer.forgetTicket(in: id)
            Unmanaged.passUnretained(timer).release()
        }
        heap.deallocate()
        later.deallocate()
        positions.deallocate()
        rows.deallocate()
    }

    /// How many timers the queue holds.
    var count: Int { heapCount + laterCount }
    var isEmpty: Bool { count == 0 }

    /// The earliest fire time and its timer.
    var first: (deadline: Int64, timer: Timer)? {
        if heapCount == 0 { refill(through: Int64.min) }
        guard heapCount > 0 else { return nil }
        return (heap[0].deadline, timer(heap[0]))
    }

    func contains(_ timer: Timer) -> Bool {
        timer.ticket(in: id) != nil
    }

    /// Calls `body` with every timer in the queue, in no particular order.
    func forEachTimer(_ body: (Timer) -> Void) {
        for index in 0..<heapCount { body(timer(heap[index])) }
        for index in 0..<laterCount { body(timer(later[index])) }
    }

    /// Adds `timer` with the given fire time; `order` must be unique and increasing per run loop.
    func insert(_ timer: Timer, deadline: Int64, order: UInt64) {
        let ticket = takeTicket()
        rows[Int(ticket)] = Row(order: order, timer: .passRetained(timer))
        timer.recordTicket(ticket, in: id)
        add(Entry(deadline: deadline, ticket: ticket))
        checkInvariantsInDebugBuilds()
    }

    /// Removes `timer`; does nothing if it is not here.
    func remove(_ timer: Timer) {
        guard let ticket = timer.ticket(in: id) else { return }
        timer.forgetTicket(in: id)
        takeOut(ticket)
        positions[Int(ticket)] = freeTicket
        freeTicket = ticket
        // The queue's reference is `timer` itself: the row (likely out of cache) need not be read.
        Unmanaged.passUnretained(timer).release()
        checkInvariantsInDebugBuilds()
    }

    /// Moves `timer` to a new fire time; it goes after timers already due at that time.
    func update(_ timer: Timer, deadline: Int64, order: UInt64) {
        guard let ticket = timer.ticket(in: id) else { return }
        rows[Int(ticket)].order = order
        let position = Int(positions[Int(ticket)])
        defer { checkInvariantsInDebugBuilds() }
        guard (position >= 0) == belongsInHeap(deadline) else {
            takeOut(ticket)
            add(Entry(deadline: deadline, ticket: ticket))
            return
        }
        if position >= 0 {
            heap[position].deadline = deadline
            restore(at: position)
        } else {
            later[~position].deadline = deadline
        }
    }

    /// Appends every entry due at `now` (deadline ≤ now) to `due`, in no particular order.
    ///
    /// Visits only due entries and their direct children: O(k) for k due timers.
    func collectDue(atOrBefore now: Int64, into due: inout [Due]) {
        refill(through: now)
        guard heapCount > 0, heap[0].deadline <= now else { return }
        stack.removeAll(keepingCapacity: true)
        stack.append(0)
        while let index = stack.popLast() {
            let entry = heap[index]
            let row = rows[Int(entry.ticket)]
            due.append(Due(deadline: entry.deadline, order: row.order, reference: row.timer))
            let firstChild = 4 * index + 1
            let end = min(firstChild + 4, heapCount)
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
        if heapCount == 0 { refill(through: Int64.min) }
        func narrow(_ deadline: Int64, _ timer: Timer) {
            guard !timer.isFiring else { return }
            let (limit, overflow) = deadline.addingReportingOverflow(timer.toleranceNanoseconds)
            hard = min(hard, overflow ? Int64.max : limit)
        }
        visit(atOrBefore: { hard }, narrow)
        // Timers beyond the horizon may fall inside the window found: bring them in and look again.
        if refill(through: hard) { visit(atOrBefore: { hard }, narrow) }
    }

    /// Raises `wake` to the latest fire time at or before `hard` among timers that are not firing.
    func latestFireTime(atOrBefore hard: Int64, raising wake: inout Int64?) {
        refill(through: hard)
        visit(
            atOrBefore: { hard },
            { deadline, timer in
                guard !timer.isFiring else { return }
                wake = max(wake ?? deadline, deadline)
            })
    }

    private func visit(atOrBefore bound: () -> Int64, _ body: (Int64, Timer) -> Void) {
        guard heapCount > 0 else { return }
        stack.removeAll(keepingCapacity: true)
        stack.append(0)
        while let index = stack.popLast() {
            let entry = heap[index]
            guard entry.deadline <= bound() else { continue }
            body(entry.deadline, timer(entry))
            let firstChild = 4 * index + 1
            var child = min(firstChild + 3, heapCount - 1)
            while child >= firstChild {
                stack.append(child)
                child -= 1
            }
        }
    }

    private func timer(_ entry: Entry) -> Timer {
        rows[Int(entry.ticket)].timer.takeUnretainedValue()
    }

    // MARK: The two rungs

    @inline(__always)
    private func belongsInHeap(_ deadline: Int64) -> Bool {
        deadline < horizon || horizon == Int64.max
    }

    /// Puts an entry into the heap or `later`, whichever its fire time belongs to.
    private func add(_ entry: Entry) {
        guard belongsInHeap(entry.deadline) else {
            appendToLater(entry)
            return
        }
        appendToHeap(entry)
        if heapCount > splitThreshold { split() }
    }

    /// Takes the entry of `ticket` out of the heap or `later`; the ticket stays taken.
    private func takeOut(_ ticket: Int32) {
        let position = Int(positions[Int(ticket)])
        if position >= 0 {
            heapCount -= 1
            if position != heapCount {
                heap[position] = heap[heapCount]
                restore(at: position)
            }
        } else {
            laterCount -= 1
            if ~position != laterCount {
                let last = later[laterCount]
                later[~position] = last
                positions[Int(last.ticket)] = Int32(position)  // the hole's position, encoded
            }
        }
    }

    private func appendToHeap(_ entry: Entry) {
        if heapCount == heapCapacity {
            heapCapacity = max(2 * heapCapacity, 16)
            heap = moved(heap, count: heapCount, to: heapCapacity)
        }
        heap[heapCount] = entry
        heapCount += 1
        siftUp(from: heapCount - 1)
    }

    private func appendToLater(_ entry: Entry) {
        if laterCount == laterCapacity {
            laterCapacity = max(2 * laterCapacity, 16)
            later = moved(later, count: laterCount, to: laterCapacity)
        }
        later[laterCount] = entry
        positions[Int(entry.ticket)] = Int32(~laterCount)
        laterCount += 1
    }

    /// Moves the later part of an oversized heap to `later`, lowering the horizon so that about
    /// `heapTarget` timers stay in the heap.
    private func split() {
        defer { splitThreshold = max(2 * heapTarget, 2 * heapCount) }
        let cut = sampledDeadline(of: heap, count: heapCount, rank: heapTarget)
        guard cut < Int64.max else { return }
        let newHorizon = min(cut + 1, horizon)
        var kept = 0
        for index in 0..<heapCount {
            let entry = heap[index]
            if entry.deadline < newHorizon {
                heap[kept] = entry
                positions[Int(entry.ticket)] = Int32(kept)
                kept += 1
            } else {
                appendToLater(entry)
            }
        }
        heapCount = kept
        horizon = newHorizon
        // Floyd's heap construction, from the last parent up; the positions of the entries it does
        // not move were recorded above.
        guard kept > 1 else { return }
        for index in stride(from: (kept - 2) / 4, through: 0, by: -1) { siftDown(from: index) }
    }

    /// Moves timers from `later` into the heap until it holds every timer due at or before `bound`
    /// (with an empty heap, at least the earliest ones), raising the horizon. Each refill moves a
    /// good share of `later` (at least `heapTarget` timers and about an eighth of the list), so that
    /// the scans cost a few looks per timer. Returns whether any timer moved.
    @discardableResult
    private func refill(through bound: Int64) -> Bool {
        guard laterCount > 0, bound >= horizon || heapCount == 0 else { return false }
        let share = max(heapTarget, laterCount / 8)
        var newHorizon = Int64.max
        if bound < Int64.max && laterCount > share {
            let cut = max(sampledDeadline(of: later, count: laterCount, rank: share), bound)
            if cut < Int64.max { newHorizon = cut + 1 }
        }
        let before = laterCount
        var kept = 0
        for index in 0..<before {
            let entry = later[index]
            if entry.deadline < newHorizon || newHorizon == Int64.max {
                appendToHeap(entry)
            } else {
                later[kept] = entry
                positions[Int(entry.ticket)] = Int32(~kept)
                kept += 1
            }
        }
        laterCount = kept
        horizon = newHorizon
        splitThreshold = max(2 * heapTarget, 2 * heapCount)
        return kept < before
    }

    /// An estimate of the fire time below which `rank` of the `count` entries lie, from an evenly spaced sample.
    private func sampledDeadline(of entries: UnsafeMutablePointer<Entry>, count: Int, rank: Int) -> Int64 {
        let size = min(count, 64)
        var sample = (0..<size).map { entries[$0 * count / size].deadline }
        sample.sort()
        return sample[min(size - 1, rank * size / count)]
    }

    // MARK: Tickets and storage

    /// A free ticket, growing the ticket table when every ticket is in use.
    private func takeTicket() -> Int32 {
        if freeTicket >= 0 {
            let ticket = freeTicket
            freeTicket = positions[Int(ticket)]
            return ticket
        }
        if Int(ticketCount) == ticketCapacity {
            let newCapacity = max(2 * ticketCapacity, 16)
            precondition(newCapacity <= Int(Int32.max), "RunLoop: more than \(Int32.max) timers in one mode")
            positions = moved(positions, count: ticketCapacity, to: newCapacity)
            rows = moved(rows, count: ticketCapacity, to: newCapacity)
            ticketCapacity = newCapacity
        }
        ticketCount += 1
        return ticketCount - 1
    }

    private func moved<Element>(
        _ buffer: UnsafeMutablePointer<Element>, count: Int,
        to newCapacity: Int
    ) -> UnsafeMutablePointer<Element> {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.moveInitialize(from: buffer, count: count)
        buffer.deallocate()
        return grown
    }

    // MARK: The heap

    @inline(__always)
    private func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        lhs.deadline < rhs.deadline
            || (lhs.deadline == rhs.deadline && rows[Int(lhs.ticket)].order < rows[Int(rhs.ticket)].order)
    }

    /// Stores `entry` at heap index `index` and records the position for its ticket.
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
            guard firstChild < heapCount else { break }
            var best = firstChild
            var child = firstChild + 1
            let end = min(firstChild + 4, heapCount)
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
    /// In debug builds, checks ``isConsistent`` after every mutation of a small queue and every
    /// 1024th of a large one (the check is O(n)): the raw buffers and unchecked exclusivity above are
    /// only safe while these invariants hold. Release builds check nothing.
    @inline(__always)
    func checkInvariantsInDebugBuilds() {
        #if DEBUG
        mutationsSinceCheck += 1
        guard count <= 64 || mutationsSinceCheck >= 1_024 else { return }
        mutationsSinceCheck = 0
        assert(isConsistent, "TimerQueue \(id): heap order, horizon or tickets broken")
        #endif
    }

    /// Whether the heap is in order, the horizon separates the rungs, and every timer's ticket leads
    /// back to its entry (for tests).
    var isConsistent: Bool {
        var tickets = Set<Int32>()
        func isRecorded(_ entry: Entry, at position: Int32) -> Bool {
            tickets.insert(entry.ticket).inserted && positions[Int(entry.ticket)] == position
                && timer(entry).ticket(in: id) == entry.ticket
        }
        for index in 0..<heapCount {
            let entry = heap[index]
            guard isRecorded(entry, at: Int32(index)), belongsInHeap(entry.deadline) else { return false }
            if index > 0 && precedes(entry, heap[(index - 1) / 4]) { return false }
        }
        for index in 0..<laterCount {
            let entry = later[index]
            guard isRecorded(entry, at: Int32(~index)), !belongsInHeap(entry.deadline) else { return false }
        }
        return true
    }
}
