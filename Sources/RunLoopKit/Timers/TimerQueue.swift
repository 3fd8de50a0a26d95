import Glibc

/// The timers of one run loop mode: an indexed 4-ary min-heap ordered by (fire time, insertion
/// order), libev's design. Schedule, cancel and reschedule are O(log n), with no linear scan
/// (CFRunLoop and swift-nio cancel by scanning); a pass takes the due timers off the top in order.
///
/// Invariants (in debug builds, ``isConsistent`` checks 1–3 and 5 after mutations, and
/// ``checkWindowInDebugBuilds(_:)`` checks 6 when a remembered window is used):
/// 1. **Order.** No entry precedes its parent by (deadline, order): the top is the next timer to
///    fire. Orders are unique per run loop and grow, so ties keep insertion order (C-T3,
///    decisions.md 2); an entry's order is renewed whenever its timer is repositioned (C-T7).
/// 2. **Records.** A timer in the queue holds one record of the queue's slab for as long as it is
///    there (``Timer/slot(in:)`` is its number, which the entry repeats), and the record holds the
///    entry's index in the heap, so removal and repositioning find their entry in O(1). A sift
///    writes indices into this dense array of `Int32`, never into the timer objects (with the
///    index in each timer, writing it on every step of a sift was a third of the profile of
///    firing 1M timers: a cache miss per step).
/// 3. **Parked timers.** The record of a timer a pass has taken off the top holds
///    ``QueueSlot/parked``: it is still in the mode, and the pass, which is on the stack, either
///    fires it (then invalidates or repositions it) or puts it back before it returns.
///    ``parkedCount`` counts them.
/// 4. **Ownership.** The queue holds one reference to the timer of each entry; the reference of a
///    parked timer belongs to the pass that took it.
/// 5. **Latest fire.** Each entry caches its timer's fire time + tolerance (C-T9), so the wake-up
///    window is found in the heap alone; ``retolerate(_:)`` refreshes it when the tolerance changes.
/// 6. **Remembered window.** ``window``, when known, is the wake-up window of the heap as it is now;
///    every mutation keeps it or forgets it (``noteAdded(_:)``, ``noteRemoved(_:)``).
///
/// It is only touched on the run loop's thread and never re-entrantly: its storage is plain
/// buffers and its fields are `@exclusivity(unchecked)`, so the hot paths pay neither copy-on-write
/// uniqueness checks nor dynamic exclusivity checks.
final class TimerQueue {
    /// A heap entry: fire time and order cached from the timer, so comparisons stay in the array,
    /// and the timer. `Unmanaged` because the entry's reference is owned by hand (invariant 4): the
    /// pass hands a popped timer's reference to its callout and releases it once, instead of a
    /// retain and release around every callout (with the removal of each fired one-shot, about
    /// 25 % of the 1M all-due run's profile when the pass did that).
    ///
    /// The entry also carries its timer's record (invariant 2) and tolerance (invariant 5), so
    /// neither a sift nor the wake-up window reads a timer object: 32 bytes, two to a cache line,
    /// so a node's four children span two lines.
    struct Entry {
        var deadline: Int64
        var order: UInt64
        var timer: Unmanaged<Timer>
        /// The timer's tolerance in nanoseconds, or `UInt32.max` when it is 4.29 s or more and is
        /// read from the timer (``Timer/compactTolerance``'s convention).
        var tolerance: UInt32
        /// The timer's record in the queue's slab (invariant 2).
        var record: Int32

        /// An entry for `timer` in `record`, its tolerance read now.
        @inline(__always)
        init(deadline: Int64, order: UInt64, timer: Unmanaged<Timer>, record: Int32) {
            self.deadline = deadline
            self.order = order
            self.timer = timer
            self.record = record
            tolerance = timer._withUnsafeGuaranteedRef { $0.compactTolerance }
        }

        /// The fire time + tolerance (C-T9), `Int64.max` on overflow.
        @inline(__always)
        var latest: Int64 {
            let tolerance =
                tolerance == UInt32.max
                ? timer._withUnsafeGuaranteedRef { $0.toleranceNanoseconds } : Int64(tolerance)
            let (sum, overflow) = deadline.addingReportingOverflow(tolerance)
            return overflow ? Int64.max : sum
        }

        @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && order < other.order)
        }
    }

    /// Identifies this queue in the timers' slots.
    let id: Int32
    @exclusivity(unchecked) private var heap: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) private var heapCount = 0
    @exclusivity(unchecked) private var heapCapacity = 0
    /// The slab of records (invariant 2): a used record holds its entry's heap index or
    /// ``QueueSlot/parked``; a free one holds `-2 - next`, `next` the following free record or -1.
    /// A plain buffer, as `heap`: written on every step of a sift.
    @exclusivity(unchecked) private var records: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var recordCapacity = 0
    /// The records ever used: those at or past it are free and not chained.
    @exclusivity(unchecked) private var recordsMade: Int32 = 0
    /// The first free record of the chain, -1 if none.
    @exclusivity(unchecked) private var freeRecord: Int32 = -1
    /// Timers of this mode that a pass has taken off the heap (invariant 3).
    @exclusivity(unchecked) private(set) var parkedCount = 0
    /// The wake-up window last found for a bound, kept while the heap's changes leave it true
    /// (invariant 6), so a wake-up that changed nothing in it does not walk it again.
    @exclusivity(unchecked) private var window: Window?
    /// How many times the wake-up window was found by walking the heap (for tests).
    @exclusivity(unchecked) private(set) var windowWalks = 0
    #if DEBUG
    /// Mutations since the last full ``isConsistent`` check (debug builds only).
    private var mutationsSinceCheck = 0
    #endif

    /// An empty queue.
    init(id: Int32) {
        self.id = id
        heap = GrowableBuffer.empty(of: Entry.self)
        records = GrowableBuffer.empty(of: Int32.self)
    }

    deinit {
        for index in 0..<heapCount {
            let timer = heap[index].timer
            timer.takeUnretainedValue().forgetSlot(in: id)
            timer.release()
        }
        free(heap)
        free(records)
    }

    /// Calls `body` with the timer of every entry in the heap (parked timers are not visited).
    func forEachTimer(_ body: (Timer) -> Void) {
        for index in 0..<heapCount { heap[index].timer._withUnsafeGuaranteedRef(body) }
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
        let record = makeRecord()
        timer.recordSlot(record, in: id)
        append(Entry(deadline: deadline, order: order, timer: .passRetained(timer), record: record))
    }

    /// Removes `timer`; does nothing if it is not here.
    func remove(_ timer: Timer) {
        guard let record = timer.slot(in: id) else { return }
        timer.forgetSlot(in: id)
        let position = records[Int(record)]
        freeRecord(record)
        defer { checkInvariantsInDebugBuilds() }
        guard position != QueueSlot.parked else {
            // Its reference is the pass's, which releases it (invariant 4).
            parkedCount -= 1
            return
        }
        let index = Int(position)
        noteRemoved(heap[index])
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
        guard let record = timer.slot(in: id) else { return }
        let position = records[Int(record)]
        guard position != QueueSlot.parked else {
            putBack(Entry(deadline: deadline, order: order, timer: .passRetained(timer), record: record))
            return
        }
        let index = Int(position)
        noteRemoved(heap[index])
        heap[index].deadline = deadline
        heap[index].order = order
        heap[index].tolerance = timer.compactTolerance
        noteAdded(heap[index])
        restore(at: index)
        checkInvariantsInDebugBuilds()
    }

    /// Refreshes the latest fire time of `timer`'s entry after its tolerance changed (invariant 5).
    /// A parked timer's entry is refreshed when it is put back.
    func retolerate(_ timer: Timer) {
        guard let record = timer.slot(in: id), records[Int(record)] != QueueSlot.parked else { return }
        let index = Int(records[Int(record)])
        noteRemoved(heap[index])
        heap[index].tolerance = timer.compactTolerance
        noteAdded(heap[index])
    }

    /// Takes the top entry off the heap if it is due at `limit`, parking its timer (invariant 3):
    /// the caller owns the entry's reference and must fire the timer or ``putBack(_:)`` the entry.
    func popFirst(dueBy limit: Int64) -> Entry? {
        guard heapCount > 0, heap[0].deadline <= limit else { return nil }
        let top = heap[0]
        noteRemoved(top)
        records[Int(top.record)] = QueueSlot.parked
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
    /// no longer parked here under the entry's record (it was removed, or repositioned back in),
    /// the reference is released.
    /// A timer repositioned back in and taken off again has two entries out: put back the newer
    /// first (last taken, first put back), so that the older, stale key finds it in the heap.
    func putBack(_ entry: Entry) {
        let timer = entry.timer.takeUnretainedValue()
        guard timer.slot(in: id) == entry.record, records[Int(entry.record)] == QueueSlot.parked else {
            entry.timer.release()
            return
        }
        parkedCount -= 1
        // The tolerance may have changed while the timer was off the heap (invariant 5).
        var entry = entry
        entry.tolerance = timer.compactTolerance
        append(entry)
    }

    /// The wake-up window of the mode's timers within `bound` (C-T9): `hard` is the earliest
    /// "fire time + tolerance" (no later than `bound`), `wake` the latest fire time at or before
    /// `hard`, `nil` if none. Timers firing now are left out when `skippingFiring` (C-T4).
    ///
    /// One walk of the entries due by `hard` finds both (a second only when a later entry narrowed
    /// `hard` below the `wake` already found), reading the heap alone (invariant 5). The answer is
    /// remembered (invariant 6): the next wake-up with the same bound and no timer firing reuses it
    /// until a timer inside the window comes or goes, so a wake-up pays for the window once, not
    /// at every pass.
    func wakeWindow(within bound: Int64, skippingFiring: Bool) -> Window {
        if !skippingFiring, let window, window.bound == bound {
            checkWindowInDebugBuilds(window)
            return window
        }
        let found = findWindow(within: bound, skippingFiring: skippingFiring)
        // A window that leaves firing timers out is not the heap's: it is not kept.
        window = skippingFiring ? nil : found
        return found
    }

    /// The wake-up window: see ``wakeWindow(within:skippingFiring:)``.
    struct Window: Equatable {
        /// The bound it was found within.
        var bound: Int64
        /// The earliest fire time + tolerance, no later than `bound`.
        var hard: Int64
        /// The latest fire time at or before `hard`, `nil` if none.
        var wake: Int64?
    }

    private func findWindow(within bound: Int64, skippingFiring: Bool) -> Window {
        windowWalks += 1
        var hard = bound
        var wake: Int64?
        HeapWindow.visit(
            count: heapCount, deadline: { heap[$0].deadline }, atOrBefore: { hard },
            body: { index in
                let entry = heap[index]
                if skippingFiring && entry.timer._withUnsafeGuaranteedRef({ $0.isFiring }) { return }
                // The walk visits entries due by `hard`, and `latest` ≥ `deadline`: still due after this.
                hard = min(hard, entry.latest)
                wake = max(wake ?? entry.deadline, entry.deadline)
            })
        if let found = wake, found > hard {
            // An entry visited later narrowed `hard` below fire times found before it.
            wake = nil
            HeapWindow.visit(
                count: heapCount, deadline: { heap[$0].deadline }, atOrBefore: { hard },
                body: { index in
                    let entry = heap[index]
                    if skippingFiring && entry.timer._withUnsafeGuaranteedRef({ $0.isFiring }) { return }
                    wake = max(wake ?? entry.deadline, entry.deadline)
                })
        }
        return Window(bound: bound, hard: hard, wake: wake)
    }

    /// Keeps the remembered window true after `entry` joined the heap (invariant 6): an entry due
    /// after the window's end changes nothing; one inside it may raise the wake; one whose own
    /// window ends earlier moves the end, and the window is found again at the next wake-up.
    @inline(__always)
    private func noteAdded(_ entry: Entry) {
        guard let known = window, entry.deadline <= known.hard else { return }
        if entry.latest < known.hard {
            window = nil
        } else {
            window!.wake = max(known.wake ?? entry.deadline, entry.deadline)
        }
    }

    /// Keeps the remembered window true after `entry` left the heap (invariant 6): only the entry
    /// that set its end or its wake can change it.
    @inline(__always)
    private func noteRemoved(_ entry: Entry) {
        guard let known = window, entry.deadline <= known.hard else { return }
        if entry.latest == known.hard || entry.deadline == known.wake { window = nil }
    }

    // MARK: The heap

    private func append(_ entry: Entry) {
        noteAdded(entry)
        if heapCount == heapCapacity { grow() }
        heap[heapCount] = entry
        heapCount += 1
        siftUp(from: heapCount - 1)
        checkInvariantsInDebugBuilds()
    }

    /// A free record of the slab, growing it when none is left (invariant 2).
    @inline(__always)
    private func makeRecord() -> Int32 {
        if freeRecord >= 0 {
            let record = freeRecord
            freeRecord = -2 - records[Int(record)]
            return record
        }
        if Int(recordsMade) == recordCapacity { records = GrowableBuffer.grow(records, capacity: &recordCapacity) }
        recordsMade += 1
        return recordsMade - 1
    }

    /// Chains `record` into the free records.
    @inline(__always)
    private func freeRecord(_ record: Int32) {
        // The slab is unchecked in release builds: a record freed twice would corrupt the chain.
        assert(
            record >= 0 && record < recordsMade && records[Int(record)] >= QueueSlot.parked,
            "TimerQueue \(id): record \(record) freed while free")
        records[Int(record)] = -2 - freeRecord
        freeRecord = record
    }

    private func grow() {
        heap = GrowableBuffer.grow(heap, capacity: &heapCapacity)
    }

    /// Stores `entry` at `index` and the index in its record (invariant 2).
    @inline(__always)
    private func place(_ entry: Entry, at index: Int) {
        heap[index] = entry
        records[Int(entry.record)] = Int32(truncatingIfNeeded: index)
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

    /// In debug builds, checks that a remembered window is the one a walk finds now (invariant 6),
    /// on a small queue every time and on a large one every 1024th wake-up.
    @inline(__always)
    func checkWindowInDebugBuilds(_ window: Window) {
        #if DEBUG
        mutationsSinceCheck += 1
        guard count <= 64 || mutationsSinceCheck >= 1_024 else { return }
        mutationsSinceCheck = 0
        assert(
            findWindow(within: window.bound, skippingFiring: false) == window,
            "TimerQueue \(id): the remembered wake-up window is stale")
        #endif
    }

    /// Whether invariants 1–3 and 5 hold: heap order, each entry's timer holding the entry's record
    /// and the record its index (each timer appearing once), a parked count that is not negative
    /// and each entry's tolerance (for tests).
    var isConsistent: Bool {
        var seen = Set<ObjectIdentifier>()
        for index in 0..<heapCount {
            let entry = heap[index]
            let timer = entry.timer.takeUnretainedValue()
            guard seen.insert(ObjectIdentifier(timer)).inserted, timer.slot(in: id) == entry.record,
                records[Int(entry.record)] == Int32(index)
            else {
                return false
            }
            if index > 0 && entry.precedes(heap[(index - 1) / 4]) { return false }
            if entry.tolerance != timer.compactTolerance { return false }
        }
        return parkedCount >= 0
    }
}
