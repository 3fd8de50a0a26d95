/// The timers of one run loop mode: an indexed 4-ary min-heap ordered by (fire time, insertion
/// order), libev's design. Schedule, cancel and reschedule are O(log n), with no linear scan
/// (CFRunLoop and swift-nio cancel by scanning); a pass takes the due timers off the top in order.
///
/// Invariants (``isConsistent`` checks exactly these, in debug builds after mutations):
/// 1. **Order.** No entry precedes its parent by (deadline, order): the top is the next timer to
///    fire. Orders are unique per run loop and grow, so ties keep insertion order (C-T3,
///    decisions.md 2); an entry's order is renewed whenever its timer is repositioned (C-T7).
/// 2. **Back-pointers.** The timer of `heap[i]` records `i` as its slot in this queue
///    (``Timer/slot(in:)``), so removal and repositioning find their entry in O(1).
/// 3. **Parked timers.** A timer a pass has taken off the top records ``QueueSlot/parked``: it is
///    still in the mode, and the pass, which is on the stack, either fires it (then invalidates or
///    repositions it) or puts it back before it returns. ``parkedCount`` counts them.
/// 4. **Ownership.** The queue holds one reference to the timer of each entry; the reference of a
///    parked timer belongs to the pass that took it.
///
/// It is only touched on the run loop's thread and never re-entrantly; its storage is one plain
/// buffer, so the hot paths pay neither copy-on-write uniqueness checks nor dynamic exclusivity checks.
final class TimerQueue {
    /// A heap entry: fire time and order cached from the timer, so comparisons stay in the array,
    /// and the timer. `Unmanaged` because the entry's reference is owned by hand (invariant 4): the
    /// pass hands a popped timer's reference to its callout and releases it once, instead of a
    /// retain and release around every callout (with the removal of each fired one-shot, about
    /// 25 % of the 1M all-due run's profile when the pass did that).
    struct Entry {
        var deadline: Int64
        var order: UInt64
        var timer: Unmanaged<Timer>

        @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && order < other.order)
        }
    }

    /// Identifies this queue in the timers' slots.
    let id: Int32
    @exclusivity(unchecked) private var heap: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var heapCount = 0
    private var heapCapacity = 0
    /// Timers of this mode that a pass has taken off the heap (invariant 3).
    private(set) var parkedCount = 0
    #if DEBUG
    /// Mutations since the last full ``isConsistent`` check (debug builds only).
    private var mutationsSinceCheck = 0
    #endif

    /// An empty queue.
    init(id: Int32) {
        self.id = id
        heap = .allocate(capacity: 0)
    }

    deinit {
        for index in 0..<heapCount {
            let timer = heap[index].timer
            timer.takeUnretainedValue().forgetSlot(in: id)
            timer.release()
        }
        heap.deallocate()
    }

    /// How many timers the mode holds, parked ones included.
    var count: Int { heapCount + parkedCount }
    var isEmpty: Bool { count == 0 }

    /// The entry at the top: the earliest fire time, `nil` when the heap is empty.
    var first: Entry? { heapCount > 0 ? heap[0] : nil }

    func contains(_ timer: Timer) -> Bool {
        timer.slot(in: id) != nil
    }

    /// Calls `body` with every entry in the heap, in no particular order (parked ones are not in it).
    func forEachEntry(_ body: (Entry) -> Void) {
        for index in 0..<heapCount { body(heap[index]) }
    }

    /// Adds `timer` with the given fire time; `order` must be unique and increasing per run loop.
    func insert(_ timer: Timer, deadline: Int64, order: UInt64) {
        // A placeholder until `place` records the index: a timer's first slot is kept inline.
        timer.recordSlot(QueueSlot.parked, in: id)
        append(Entry(deadline: deadline, order: order, timer: .passRetained(timer)))
    }

    /// Removes `timer`; does nothing if it is not here.
    func remove(_ timer: Timer) {
        guard let slot = timer.slot(in: id) else { return }
        timer.forgetSlot(in: id)
        defer { checkInvariantsInDebugBuilds() }
        guard slot != QueueSlot.parked else {
            // Its reference is the pass's, which releases it (invariant 4).
            parkedCount -= 1
            return
        }
        let index = Int(slot)
        heapCount -= 1
        if index != heapCount {
            heap[index] = heap[heapCount]
            restore(at: index)
        }
        // The queue's reference is `timer` itself: no need to read the entry.
        Unmanaged.passUnretained(timer).release()
    }

    /// Moves `timer` to a new fire time and order: it goes after timers already due at that time.
    /// A parked timer goes back into the heap.
    func update(_ timer: Timer, deadline: Int64, order: UInt64) {
        guard let slot = timer.slot(in: id) else { return }
        guard slot != QueueSlot.parked else {
            putBack(Entry(deadline: deadline, order: order, timer: .passRetained(timer)))
            return
        }
        let index = Int(slot)
        heap[index].deadline = deadline
        heap[index].order = order
        restore(at: index)
        checkInvariantsInDebugBuilds()
    }

    /// Takes the top entry off the heap if it is due at `limit`, parking its timer (invariant 3):
    /// the caller owns the entry's reference and must fire the timer or ``putBack(_:)`` the entry.
    func popFirst(dueBy limit: Int64) -> Entry? {
        guard heapCount > 0, heap[0].deadline <= limit else { return nil }
        let top = heap[0]
        top.timer._withUnsafeGuaranteedRef { $0.setSlot(QueueSlot.parked, in: id) }
        parkedCount += 1
        heapCount -= 1
        if heapCount > 0 {
            heap[0] = heap[heapCount]
            siftDown(from: 0)
        }
        checkInvariantsInDebugBuilds()
        return top
    }

    /// Puts a parked timer's entry back with its key, taking over its reference; if the timer is
    /// no longer parked here (it was removed, or repositioned back in), the reference is released.
    /// A timer repositioned back in and taken off again has two entries out: put back the newer
    /// first (last taken, first put back), so that the older, stale key finds it in the heap.
    func putBack(_ entry: Entry) {
        let timer = entry.timer.takeUnretainedValue()
        guard timer.slot(in: id) == QueueSlot.parked else {
            entry.timer.release()
            return
        }
        parkedCount -= 1
        append(entry)
    }

    /// Narrows `hard` to the earliest "fire time + tolerance" among timers that are not firing,
    /// visiting only entries whose fire time is at or before `hard` (C-T9).
    func narrowHardDeadline(_ hard: inout Int64) {
        visit(
            atOrBefore: { hard },
            { deadline, timer in
                guard !timer.isFiring else { return }
                let (limit, overflow) = deadline.addingReportingOverflow(timer.toleranceNanoseconds)
                hard = min(hard, overflow ? Int64.max : limit)
            })
    }

    /// Raises `wake` to the latest fire time at or before `hard` among timers that are not firing.
    func latestFireTime(atOrBefore hard: Int64, raising wake: inout Int64?) {
        visit(
            atOrBefore: { hard },
            { deadline, timer in
                guard !timer.isFiring else { return }
                wake = max(wake ?? deadline, deadline)
            })
    }

    /// Calls `body` with every entry whose fire time is at or before `bound()` (``HeapWindow``).
    private func visit(atOrBefore bound: () -> Int64, _ body: (Int64, Timer) -> Void) {
        HeapWindow.visit(
            count: heapCount, deadline: { heap[$0].deadline }, atOrBefore: bound,
            body: { index in body(heap[index].deadline, heap[index].timer.takeUnretainedValue()) })
    }

    // MARK: The heap

    private func append(_ entry: Entry) {
        if heapCount == heapCapacity { grow() }
        heap[heapCount] = entry
        heapCount += 1
        siftUp(from: heapCount - 1)
        checkInvariantsInDebugBuilds()
    }

    private func grow() {
        heapCapacity = max(2 * heapCapacity, 16)
        let grown = UnsafeMutablePointer<Entry>.allocate(capacity: heapCapacity)
        grown.moveInitialize(from: heap, count: heapCount)
        heap.deallocate()
        heap = grown
    }

    /// Stores `entry` at `index` and records the index in its timer (invariant 2).
    @inline(__always)
    private func place(_ entry: Entry, at index: Int) {
        heap[index] = entry
        entry.timer._withUnsafeGuaranteedRef { $0.setSlot(Int32(truncatingIfNeeded: index), in: id) }
    }

    private func restore(at index: Int) {
        if index > 0 && heap[index].precedes(heap[(index - 1) / 4]) {
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
            guard moving.precedes(heap[parent]) else { break }
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
                if heap[child].precedes(heap[best]) { best = child }
                child += 1
            }
            guard heap[best].precedes(moving) else { break }
            place(heap[best], at: index)
            index = best
        }
        place(moving, at: index)
    }
}

extension TimerQueue {
    /// In debug builds, checks ``isConsistent`` after every mutation of a small queue and every
    /// 1024th of a large one (the check is O(n)): the raw buffer and unchecked exclusivity above are
    /// only safe while the invariants hold. Release builds check nothing.
    @inline(__always)
    func checkInvariantsInDebugBuilds() {
        #if DEBUG
        mutationsSinceCheck += 1
        guard count <= 64 || mutationsSinceCheck >= 1_024 else { return }
        mutationsSinceCheck = 0
        assert(isConsistent, "TimerQueue \(id): heap order, slots or parked count broken")
        #endif
    }

    /// Whether invariants 1–3 hold: heap order, each entry's timer recording its index (and
    /// appearing once), and a parked count that is not negative (for tests).
    var isConsistent: Bool {
        var seen = Set<ObjectIdentifier>()
        for index in 0..<heapCount {
            let entry = heap[index]
            let timer = entry.timer.takeUnretainedValue()
            guard seen.insert(ObjectIdentifier(timer)).inserted, timer.slot(in: id) == Int32(index) else {
                return false
            }
            if index > 0 && entry.precedes(heap[(index - 1) / 4]) { return false }
        }
        return parkedCount >= 0
    }
}
