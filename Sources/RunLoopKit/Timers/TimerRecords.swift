internal import CLinuxEvents
import Glibc

/// The timers of one heap, kept by value: what a ``TimeoutSet`` keeps its timeouts in, and each
/// mode's ``TimerQueue`` its ``Timer``s (with them display links, dispatch timers on a loop and
/// sleeping tasks).
///
/// A timer is a 32-byte ``Record`` in a slab of structs and a 24-byte ``Entry`` in a 4-ary min-heap
/// ordered by (deadline, insertion order), as libev keeps its timers. There are no back-pointers: a
/// sift moves entries within one buffer and writes nothing into the records. Cancelling is lazy (the
/// entry stays behind as a tombstone) and moving a timer later is done in place (its entry is
/// re-keyed when it reaches the top, libev's `ev_timer_again`).
///
/// Invariants (``isConsistent`` checks them, in debug builds after mutations):
/// 1. **Order.** No entry precedes its parent.
/// 2. **One live entry.** An entry is its record's live entry exactly when their stamps match. A
///    scheduled record has one live entry, in the heap or deferred, unless its owner took it off
///    the heap and holds it (a ``TimerQueue`` pass's parked timer); every other entry is a
///    tombstone, and `tombstones` counts those in the heap and deferred.
/// 3. **Lower bound.** A live entry's key is its record's key, or an earlier one when the record
///    was moved later: ``settleTop()`` re-keys it when it reaches the top.
/// 4. **Bounded tombstones.** After every operation, tombstones are at most a quarter of the
///    entries in the heap and deferred (``sweepIfNeeded()``).
/// 5. **Held top.** An owner may take the top without taking it off (``holdTop()``): it stays in
///    `heap[0]`, counted as out (invariant 2), neither live in the heap nor a tombstone. Moving its
///    record re-keys it there with one sift down and the same stamp, so the entry is the heap's
///    again and the owner's copy is no longer out (``move(_:deadline:order:entryOut:)`` says so);
///    putting it back while live leaves it where it is; any other operation on the heap takes it
///    off first (`dropHeldTop()`). A repeating timer that fires and goes on then costs one sift
///    from the top instead of a pop and a push.
///
/// Storage: the heap, the slab and the deferred entries are plain malloc'd buffers, grown by
/// doubling with realloc (``GrowableBuffer``), only touched on the loop's thread and never
/// re-entrantly (owners call out with no mutation open). This spares the hot paths the uniqueness
/// and bounds checks of arrays; the owners keep this struct in an `@exclusivity(unchecked)` field,
/// which spares them the dynamic exclusivity checks. Debug builds check every index (`checkIndex`)
/// and the invariants. The owner frees the buffers with ``deallocate()``.
struct TimerRecords {
    /// A heap entry: the key, the slot of its record and the record's stamp when it was pushed
    /// (invariant 2). The stamp fills what would be padding: an entry is 24 bytes either way.
    struct Entry {
        var deadline: Int64
        var order: UInt64
        var slot: UInt32
        var stamp: UInt32

        @inline(__always)
        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && order < other.order)
        }
    }

    /// A slot of the slab: 32 bytes. `deadline` and `order` are the timer's key (`order` 0 in a
    /// free slot); `stamp` changes whenever the live entry does (the timer is moved earlier, fires
    /// or is cancelled), so that its old entries become tombstones.
    struct Record {
        var deadline: Int64
        var order: UInt64
        /// The owner's 64 bits in a scheduled slot (a timeout's tag, a timer's reference); in a
        /// free one, the next free slot (``TimerRecords/noSlot`` at the end of the list).
        var payload: UInt64
        /// The owner's 32 bits, kept when the slot is freed and reused: a timeout's generation,
        /// a timer's tolerance and parked flag.
        var word: UInt32
        var stamp: UInt32

        @inline(__always) var isScheduled: Bool { order != 0 }
    }

    static let noSlot = UInt32.max

    var heap: UnsafeMutablePointer<Entry>
    var heapCount = 0
    var heapCapacity = 0
    /// The heap's and the slab's pages are present up to these elements (``GrowableBuffer/prefault(_:from:capacity:)``).
    private var heapFaultedTo = 0
    var slab: UnsafeMutablePointer<Record>
    var slabCount = 0
    var slabCapacity = 0
    private var slabFaultedTo = 0
    var freeHead = TimerRecords.noSlot
    /// Entries taken off the heap for the rest of a pass (``TimeoutSet``'s, C-T4): live or not,
    /// they count among the entries, and a sweep drops their tombstones too.
    var deferred: UnsafeMutablePointer<Entry>
    var deferredCount = 0
    var deferredCapacity = 0
    /// Entries in the heap or deferred that are not their record's live entry.
    var tombstones = 0
    /// Scheduled records.
    private(set) var liveCount = 0
    /// Whether `heap[0]` is an entry its owner holds (invariant 5).
    private var topHeld = false
    /// Whether `heap[0]` is known to be settled (``settleTop()``): live, keyed as its record, not
    /// held. Every change to the heap or to a record's key or stamp forgets it, so that a pass and
    /// the look at the next fire date that follows it settle the top once, not each in turn.
    private var topIsSettled = false
    #if DEBUG
    private var mutationsSinceCheck = 0
    #endif

    /// Empty buffers.
    init() {
        heap = GrowableBuffer.empty(of: Entry.self)
        slab = GrowableBuffer.empty(of: Record.self)
        deferred = GrowableBuffer.empty(of: Entry.self)
    }

    /// Frees the buffers; the records are not used afterwards.
    func deallocate() {
        free(heap)
        free(slab)
        free(deferred)
    }

    // MARK: Scheduling

    /// Takes a slot, keys it and pushes its live entry. The slot's `word` is the one it had (0 in
    /// a slot never used).
    @inline(__always)
    mutating func schedule(deadline: Int64, order: UInt64, payload: UInt64) -> UInt32 {
        let slot = takeFreeSlot()
        let record = slab + Int(slot)
        record.pointee.deadline = deadline
        record.pointee.order = order
        record.pointee.payload = payload
        liveCount += 1
        push(Entry(deadline: deadline, order: order, slot: slot, stamp: record.pointee.stamp))
        return slot
    }

    /// Frees the slot of a timer that fired or was cancelled: its live entry, if in the heap or
    /// deferred, becomes a tombstone; `entryOut` says its owner holds it instead.
    @inline(__always)
    mutating func cancel(_ slot: UInt32, entryOut: Bool = false) {
        release(slot)
        guard !entryOut else { return }
        tombstones += 1
        sweepIfNeeded()
    }

    /// Gives `slot` a new key. A key no earlier than the current one is written in place, in O(1)
    /// (invariant 3); an earlier one pushes a new live entry and leaves the old one a tombstone.
    /// `entryOut`: the live entry is held by the owner, and a new one is pushed whatever the key,
    /// unless the entry is the held top, which is re-keyed in place (invariant 5). Returns whether
    /// it was: the owner's copy then stays live, and is the heap's.
    @inline(__always)
    @discardableResult
    mutating func move(_ slot: UInt32, deadline: Int64, order: UInt64, entryOut: Bool = false) -> Bool {
        checkIndex(Int(slot), below: slabCount)
        topIsSettled = false
        let record = slab + Int(slot)
        let previousDeadline = record.pointee.deadline
        record.pointee.deadline = deadline
        record.pointee.order = order
        if entryOut && topHeld && heap[0].slot == slot {
            assert(heap[0].stamp == record.pointee.stamp, "TimerRecords: the held top is not its slot's live entry")
            heap[0].deadline = deadline
            heap[0].order = order
            topHeld = false
            siftDown(from: 0)
            checkInvariantsInDebugBuilds()
            return true
        }
        // The live entry's key is no later than the record's (invariant 3): a key at or after it keeps that entry.
        guard entryOut || deadline < previousDeadline else { return false }
        advanceStamp(of: slot)
        if !entryOut { tombstones += 1 }
        push(Entry(deadline: deadline, order: order, slot: slot, stamp: record.pointee.stamp))
        sweepIfNeeded()
        return false
    }

    /// Puts an entry the owner held (``holdTop()``) back, if it is still its record's live entry;
    /// returns whether it was. The held top stays where it is, or is dropped if it went stale.
    @inline(__always)
    mutating func putBack(_ entry: Entry) -> Bool {
        topIsSettled = false
        if topHeld && heap[0].slot == entry.slot && heap[0].stamp == entry.stamp {
            guard isLive(entry) else {
                dropHeldTop()
                return false
            }
            topHeld = false
            return true
        }
        guard isLive(entry) else { return false }
        push(entry)
        return true
    }

    private mutating func takeFreeSlot() -> UInt32 {
        if freeHead != Self.noSlot {
            let slot = freeHead
            freeHead = UInt32(truncatingIfNeeded: slab[Int(slot)].payload)
            return slot
        }
        if slabCount == slabCapacity {
            slab = GrowableBuffer.grow(slab, capacity: &slabCapacity)
            slabFaultedTo = slabCount
        }
        if slabCount >= slabFaultedTo {
            slabFaultedTo = GrowableBuffer.prefault(slab, from: slabCount, capacity: slabCapacity)
        }
        precondition(slabCount < Int(Self.noSlot), "RunLoopKit: more than 2³² − 2 timers in one heap")
        (slab + slabCount).initialize(
            to: Record(deadline: 0, order: 0, payload: UInt64(Self.noSlot), word: 0, stamp: 0))
        slabCount += 1
        return UInt32(slabCount - 1)
    }

    /// Frees `slot`: its live entry, wherever it is, goes stale.
    @inline(__always)
    private mutating func release(_ slot: UInt32) {
        checkIndex(Int(slot), below: slabCount)
        topIsSettled = false
        advanceStamp(of: slot)
        let record = slab + Int(slot)
        record.pointee.order = 0
        record.pointee.payload = UInt64(freeHead)
        freeHead = slot
        liveCount -= 1
    }

    /// Makes the slot's live entry a tombstone. Stamps are 32 bits: before one wraps, a sweep
    /// removes every tombstone, so that none can carry the stamp the slot comes back to (at most
    /// once per 2³² changes of one slot). An entry an owner holds is not swept: a ``TimerQueue``
    /// pass holds one for a callout, not for 2³² changes of its slot.
    @inline(__always)
    private mutating func advanceStamp(of slot: UInt32) {
        let record = slab + Int(slot)
        if record.pointee.stamp == UInt32.max { sweep() }
        record.pointee.stamp &+= 1
    }

    // MARK: The top

    /// Whether `entry` is its record's live entry (invariant 2).
    @inline(__always)
    func isLive(_ entry: Entry) -> Bool {
        checkIndex(Int(entry.slot), below: slabCount)
        return slab[Int(entry.slot)].stamp == entry.stamp
    }

    /// Until the top is the live entry of a record with that very key: drops tombstones, and
    /// re-keys a record moved later in place, with one sift down (invariant 3).
    mutating func settleTop() {
        if topIsSettled {
            assert(
                heapCount > 0 && !topHeld && isLive(heap[0]) && slab[Int(heap[0].slot)].order == heap[0].order,
                "TimerRecords: the top is known settled, but is not")
            return
        }
        dropHeldTop()
        while heapCount > 0 {
            let top = heap[0]
            checkIndex(Int(top.slot), below: slabCount)
            let record = slab + Int(top.slot)
            if record.pointee.stamp != top.stamp {
                tombstones -= 1
                _ = popTop()
            } else if record.pointee.order != top.order {
                heap[0].deadline = record.pointee.deadline
                heap[0].order = record.pointee.order
                siftDown(from: 0)
                checkInvariantsInDebugBuilds()
            } else {
                topIsSettled = true
                return
            }
        }
    }

    /// The top after ``settleTop()``: the live entry of the earliest timer, `nil` when none is in the heap.
    @inline(__always)
    mutating func settledTop() -> Entry? {
        settleTop()
        return heapCount > 0 ? heap[0] : nil
    }

    /// Takes the settled top for its owner, leaving it in place (invariant 5); the heap must not
    /// be empty. The owner moves its record, puts it back or leaves it to be dropped.
    ///
    /// The next top is one of its children: their records are asked for now, so that reading the
    /// one that comes up is hidden behind the owner's callout.
    @inline(__always)
    mutating func holdTop() -> Entry {
        checkIndex(0, below: heapCount)
        assert(!topHeld, "TimerRecords: the top is already held")
        topHeld = true
        topIsSettled = false
        for child in 1..<min(5, heapCount) { cle_prefetch(slab + Int(heap[child].slot)) }
        return heap[0]
    }

    /// Takes the held top off the heap, if there is one (invariant 5).
    @inline(__always)
    private mutating func dropHeldTop() {
        guard topHeld else { return }
        topHeld = false
        _ = popTop()
    }

    /// Takes the top entry off the heap; the heap must not be empty. Its owner holds it, or it is
    /// deferred, or its record was just freed.
    private mutating func popTop() -> Entry {
        checkIndex(0, below: heapCount)
        topIsSettled = false
        let top = heap[0]
        heapCount -= 1
        if heapCount > 0 {
            heap[0] = heap[heapCount]
            siftDown(from: 0)
        }
        checkInvariantsInDebugBuilds()
        return top
    }

    /// Frees the record of the top entry, which is live, and takes the entry off the heap: the
    /// timer fires. A sweep before the slot's stamp wraps runs while the entry is still live, so it
    /// stays on top.
    @inline(__always)
    mutating func cancelTop() {
        assert(!topHeld, "TimerRecords: cancelTop with the top held")
        release(heap[0].slot)
        _ = popTop()
        sweepIfNeeded()
    }

    /// Moves the top entry to the deferred ones, to go back at the end of the pass.
    mutating func deferTop() {
        assert(!topHeld, "TimerRecords: deferTop with the top held")
        if deferredCount == deferredCapacity { deferred = GrowableBuffer.grow(deferred, capacity: &deferredCapacity) }
        deferred[deferredCount] = popTop()
        deferredCount += 1
    }

    /// Puts the deferred entries back in the heap and drops the dead ones.
    mutating func restoreDeferred() {
        while deferredCount > 0 {
            deferredCount -= 1
            let entry = deferred[deferredCount]
            if isLive(entry) {
                push(entry)
            } else {
                tombstones -= 1
            }
        }
    }

    /// Calls `body` with every entry in the heap whose deadline is at or before `bound()`, re-read
    /// as `body` narrows it (``HeapWindow``); tombstones and entries of records moved later are
    /// among them, a held top is not (invariant 5).
    @inline(__always)
    func visitEntries(atOrBefore bound: () -> Int64, body: (Entry) -> Void) {
        let skipsTop = topHeld
        HeapWindow.visit(
            count: heapCount, deadline: { heap[$0].deadline }, atOrBefore: bound,
            body: { index in if index != 0 || !skipsTop { body(heap[index]) } })
    }

    /// Calls `body` with the slot of every scheduled record.
    func forEachScheduled(_ body: (UInt32) -> Void) {
        for slot in 0..<slabCount where slab[slot].isScheduled { body(UInt32(slot)) }
    }

    // MARK: The heap

    @inline(__always)
    private mutating func push(_ entry: Entry) {
        dropHeldTop()
        topIsSettled = false
        if heapCount == heapCapacity {
            heap = GrowableBuffer.grow(heap, capacity: &heapCapacity)
            heapFaultedTo = heapCount
        }
        if heapCount >= heapFaultedTo {
            heapFaultedTo = GrowableBuffer.prefault(heap, from: heapCount, capacity: heapCapacity)
        }
        heap[heapCount] = entry
        heapCount += 1
        siftUp(from: heapCount - 1)
        checkInvariantsInDebugBuilds()
    }

    /// Invariant 4: when more than a quarter of the entries are tombstones, removes them all and
    /// rebuilds the heap bottom-up, in O(n); at least n/4 cancellations have paid for it.
    @inline(__always)
    mutating func sweepIfNeeded() {
        guard tombstones > 0, 4 * tombstones > heapCount + deferredCount else { return }
        sweep()
    }

    /// How many entries ahead the sweep asks for their records.
    static let sweepLookahead = 8

    /// Removes every tombstone and rebuilds the heap: when they pass a quarter of the entries, and
    /// before a slot's stamp wraps (`advanceStamp(of:)`).
    mutating func sweep() {
        dropHeldTop()
        topIsSettled = false
        var kept = 0
        // Each liveness check reads a record at random: the records a few entries ahead are
        // asked for early (timerdeck-bench's cancel rows: the sweep is most of cancelling all).
        for index in 0..<heapCount {
            if index + Self.sweepLookahead < heapCount {
                cle_prefetch(slab + Int(heap[index + Self.sweepLookahead].slot))
            }
            guard isLive(heap[index]) else { continue }
            heap[kept] = heap[index]
            kept += 1
        }
        heapCount = kept
        kept = 0
        for index in 0..<deferredCount where isLive(deferred[index]) {
            deferred[kept] = deferred[index]
            kept += 1
        }
        deferredCount = kept
        tombstones = 0
        if heapCount > 1 {
            for index in stride(from: (heapCount - 2) / 4, through: 0, by: -1) { siftDown(from: index) }
        }
        checkInvariantsInDebugBuilds()
    }

    private mutating func siftUp(from start: Int) {
        // In locals: a store through the buffer could alias `self`, and would reload both at every step.
        let heap = heap
        var index = start
        let moving = heap[index]
        while index > 0 {
            let parent = (index - 1) / 4
            guard moving.precedes(heap[parent]) else { break }
            heap[index] = heap[parent]
            index = parent
        }
        heap[index] = moving
    }

    private mutating func siftDown(from start: Int) {
        let heap = heap
        let heapCount = heapCount
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
            heap[index] = heap[best]
            index = best
        }
        heap[index] = moving
    }

    // MARK: Checks

    /// In debug builds, stops the program if `index` is outside `0..<count`: the buffers above are
    /// unchecked in release builds.
    @inline(__always)
    func checkIndex(_ index: Int, below count: Int) {
        assert(index >= 0 && index < count, "TimerRecords: index \(index) outside 0..<\(count)")
    }

    /// In debug builds, checks ``isConsistent(entriesOut:)`` (with no entry out: owners that take
    /// entries out check their own count) after every mutation of a small heap and every 1024th of
    /// a large one (the check is O(n)). Release builds check nothing.
    @inline(__always)
    private mutating func checkInvariantsInDebugBuilds() {
        #if DEBUG
        mutationsSinceCheck += 1
        guard heapCount <= 64 || mutationsSinceCheck >= 1_024 else { return }
        mutationsSinceCheck = 0
        assert(isOrdered && liveEntries().dead == tombstones, "TimerRecords: heap order or tombstone count broken")
        #endif
    }

    /// Whether invariant 1 holds.
    private var isOrdered: Bool {
        for index in 1..<max(heapCount, 1) where heap[index].precedes(heap[(index - 1) / 4]) { return false }
        return true
    }

    /// The live entries and tombstones in the heap and deferred, less a held top (invariant 5).
    private func liveEntries() -> (live: Int, dead: Int) {
        var live = 0
        var dead = 0
        for index in (topHeld ? 1 : 0)..<heapCount {
            if isLive(heap[index]) { live += 1 } else { dead += 1 }
        }
        for index in 0..<deferredCount {
            if isLive(deferred[index]) { live += 1 } else { dead += 1 }
        }
        return (live, dead)
    }

    /// Whether invariants 1–3 hold, with `entriesOut` live entries held by the owner: heap order,
    /// one live entry per scheduled record, each live entry's key no later than its record's, and
    /// the tombstone count (for tests and debug builds).
    func isConsistent(entriesOut: Int) -> Bool {
        for index in (topHeld ? 1 : 0)..<heapCount where isLive(heap[index]) {
            let record = slab[Int(heap[index].slot)]
            let entry = heap[index]
            guard record.isScheduled, entry.order <= record.order, entry.deadline <= record.deadline else {
                return false
            }
        }
        let (live, dead) = liveEntries()
        return isOrdered && live + entriesOut == liveCount && dead == tombstones
    }

    /// Entries in the heap and deferred, tombstones included (for tests of invariant 4).
    var entryCount: Int { heapCount + deferredCount }
}
