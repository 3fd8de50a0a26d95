internal import CLinuxEvents
import Glibc

/// The heap of a ``TimeoutSet``: entries by value, a 4-ary min-heap ordered by (deadline, order).
///
/// Invariants (``isConsistent`` checks them, in debug builds after mutations):
/// 1. **Order.** No entry precedes its parent.
/// 2. **One live entry.** Each scheduled timeout has exactly one live entry (the one with its
///    record's `stamp`), in the heap or deferred; every other entry is a tombstone, and
///    `tombstones` counts them.
/// 3. **Bounded tombstones.** After every operation, tombstones are at most a quarter of the
///    entries (`sweepIfNeeded`).
///
/// There are no back-pointers: a sift moves 24-byte entries within one buffer and writes nothing
/// into the records.
extension TimeoutSet {
    /// Whether `entry` is its timeout's live entry (invariant 2).
    @inline(__always)
    func isLive(_ entry: Entry) -> Bool {
        checkIndex(Int(entry.slot), below: recordCount)
        return records[Int(entry.slot)].stamp == entry.stamp
    }

    func push(_ entry: Entry) {
        if heapCount == heapCapacity { growHeap() }
        heap[heapCount] = entry
        heapCount += 1
        siftUp(from: heapCount - 1)
        checkInvariantsInDebugBuilds()
    }

    /// Takes the top entry off the heap; the heap must not be empty.
    func popTop() -> Entry {
        checkIndex(0, below: heapCount)
        let top = heap[0]
        heapCount -= 1
        if heapCount > 0 {
            heap[0] = heap[heapCount]
            siftDown(from: 0)
        }
        checkInvariantsInDebugBuilds()
        return top
    }

    /// Until the top is the live entry of a timeout with that very key: drops tombstones, and
    /// re-keys a timeout moved later (its record's key) in place, with one sift down.
    func settleTop() {
        while heapCount > 0 {
            let top = heap[0]
            let record = records + Int(top.slot)
            checkIndex(Int(top.slot), below: recordCount)
            if record.pointee.stamp != top.stamp {
                tombstones -= 1
                _ = popTop()
            } else if record.pointee.order != top.order {
                heap[0].deadline = record.pointee.deadline
                heap[0].order = record.pointee.order
                siftDown(from: 0)
                checkInvariantsInDebugBuilds()
            } else {
                return
            }
        }
    }

    /// Invariant 3: when more than a quarter of the entries are tombstones, removes them all and
    /// rebuilds the heap bottom-up, in O(n); at least n/4 cancellations have paid for it.
    @inline(__always)
    func sweepIfNeeded() {
        guard tombstones > 0, 4 * tombstones > heapCount + deferredCount else { return }
        sweep()
    }

    /// How many entries ahead the sweep asks for their records.
    static let sweepLookahead = 8

    /// Removes every tombstone and rebuilds the heap: when they pass a quarter of the entries, and
    /// before a slot's stamp wraps (`advanceStamp(of:)`).
    func sweep() {
        var kept = 0
        // Each liveness check reads a record at random: the records a few entries ahead are
        // asked for early (timerdeck-bench's cancel rows: the sweep is most of cancelling all).
        for index in 0..<heapCount {
            if index + Self.sweepLookahead < heapCount {
                cle_prefetch(records + Int(heap[index + Self.sweepLookahead].slot))
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

    private func growHeap() {
        heap = GrowableBuffer.grow(heap, capacity: &heapCapacity)
    }

    func growDeferred() {
        deferred = GrowableBuffer.grow(deferred, capacity: &deferredCapacity)
    }

    private func siftUp(from start: Int) {
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
            heap[index] = heap[best]
            index = best
        }
        heap[index] = moving
    }

    /// In debug builds, stops the program if `index` is outside `0..<count`: the buffers above are
    /// unchecked in release builds.
    @inline(__always)
    func checkIndex(_ index: Int, below count: Int) {
        assert(index >= 0 && index < count, "TimeoutSet: index \(index) outside 0..<\(count)")
    }

    /// In debug builds, checks ``isConsistent`` after every mutation of a small set and every
    /// 1024th of a large one (the check is O(n)). Release builds check nothing.
    @inline(__always)
    func checkInvariantsInDebugBuilds() {
        #if DEBUG
        mutationsSinceCheck += 1
        guard heapCount <= 64 || mutationsSinceCheck >= 1_024 else { return }
        mutationsSinceCheck = 0
        assert(isConsistent, "TimeoutSet: heap order, live entries or tombstone count broken")
        #endif
    }

    /// Whether invariants 1 and 2 hold: heap order, one live entry per scheduled timeout, and the
    /// tombstone count (for tests).
    var isConsistent: Bool {
        var live = 0
        var dead = 0
        for index in 0..<heapCount {
            if index > 0 && heap[index].precedes(heap[(index - 1) / 4]) { return false }
            if isLive(heap[index]) { live += 1 } else { dead += 1 }
        }
        for index in 0..<deferredCount {
            if isLive(deferred[index]) { live += 1 } else { dead += 1 }
        }
        return live == count && dead == tombstones
    }

    /// Entries in the heap and deferred, tombstones included (for tests of invariant 3).
    var entryCount: Int { heapCount + deferredCount }

    /// Tombstones in the heap and deferred (for tests of invariant 3).
    var tombstoneCount: Int { tombstones }
}
