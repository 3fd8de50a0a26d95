import Glibc

/// Many one-shot timeouts of one run loop, without an object per timeout: for code that keeps
/// thousands to millions of them (a deadline per connection, per request, per retry).
///
/// A ``Timer`` is an object with a closure, a weak reference to its loop and a slot in every mode
/// it is in: fine for the dozens of timers of an interface, costly for a server's idle timeouts.
/// A timeout set keeps its timeouts as values: each is a record in a slab of structs and an entry
/// in a 4-ary heap ordered by (deadline, insertion order), as libev keeps its timers. Scheduling,
/// cancelling, rescheduling and firing allocate nothing once the set has grown to its working size.
/// One ``TimeoutHandler`` serves every timeout; a 64-bit tag, given when scheduling, tells the handler
/// which one fired. Use ``Timer`` for repeating timers, timers that need their own block, fire date
/// edits from other threads or metrics names; use a timeout set when the timeouts are many and alike.
///
/// The set's timeouts follow the rules of ``Timer``'s: they fire in the run loop's timer pass, only
/// while the loop runs in the set's mode (or in a common mode, for a set made for
/// ``RunLoop/Mode/common``, C-M4); in (deadline, insertion order) with the mode's timers (C-T3); a
/// deadline in the past fires at the next pass (C-T1); a timeout scheduled or moved during a pass
/// fires at a later pass (C-T4); the loop wakes once for every timeout whose window
/// `deadline ... deadline + tolerance` contains the wake-up (C-T9). A late timeout fires once, late.
///
/// ```swift
/// let loop = RunLoop.current
/// let connections = IdleConnections()
/// let timeouts = TimeoutSet(on: loop, tolerance: .milliseconds(10), handler: connections)
/// let idle = timeouts.schedule(at: loop.now + .seconds(30), tag: 7)
/// timeouts.reschedule(idle, to: loop.now + .seconds(60))  // traffic: later, in place
/// timeouts.cancel(idle)  // closed: a no-op if it already fired
/// timeouts.invalidate()
/// ```
///
/// A set belongs to the loop it was made on and is used on that loop's thread only (it is not
/// `Sendable`). The loop holds the set, and the set its handler, until ``invalidate()``.
///
/// Cancelling is lazy: a cancelled timeout's heap entry stays behind as a tombstone until it
/// reaches the top or until tombstones make up more than a quarter of the heap, when one O(n) sweep
/// removes them all. Moving a timeout later only rewrites its record (libev's `ev_timer_again`):
/// the entry moves when its old deadline comes up, without waking the loop at that time.
public final class TimeoutSet {
    /// A timeout of a set: a slot in its slab and the generation of that slot when it was scheduled.
    ///
    /// Once the timeout fired or was cancelled, the handle is stale and every call with it does
    /// nothing, even after the slot was reused by another timeout (its generation moved on). A
    /// generation repeats after 2³² reuses of the same slot.
    public struct Timeout: Hashable, Sendable {
        let slot: UInt32
        let generation: UInt32
    }

    /// A heap entry: the key, the slot of its record and the record's entry stamp when it was
    /// pushed. An entry is its timeout's live entry exactly when the stamps match; any other is a
    /// tombstone. The stamp fills what would be padding: an entry is 24 bytes either way.
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

    /// A slot of the slab: 32 bytes. `deadline` and `order` are the timeout's key, `order` 0 in a
    /// free slot. The live entry's order is older than `order` when the timeout was moved later (it
    /// is re-keyed when it reaches the top); that entry's deadline is then no later than `deadline`,
    /// and equal to it otherwise. `stamp` changes whenever the live entry does (the timeout is moved
    /// earlier, fires or is cancelled); `generation` only when the slot is freed, so that handles
    /// survive a move.
    struct Record {
        var deadline: Int64
        var order: UInt64
        /// The tag in a scheduled slot; in a free one, the next free slot (``TimeoutSet/noSlot``
        /// at the end of the list). A free slot needs no tag, and a slot of 40 bytes would cost
        /// 80 MB more at 10M timeouts.
        var tagOrNextFree: UInt64
        var generation: UInt32
        var stamp: UInt32

        @inline(__always) var isScheduled: Bool { order != 0 }
    }

    static let noSlot = UInt32.max

    // Storage: the heap, the slab and the pass's scratch are plain malloc'd buffers, grown by
    // doubling with realloc (``GrowableBuffer``) and only touched on the loop's thread, never re-entrantly
    // during a mutation (the handler is called with no pointer held). As in ``TimerQueue``, this spares the hot paths the uniqueness and
    // bounds checks of arrays and the dynamic exclusivity checks of class properties; debug builds
    // check every index (`checkIndex`) and the heap's invariants (`checkInvariantsInDebugBuilds`).
    @exclusivity(unchecked) var heap: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) var heapCount = 0
    @exclusivity(unchecked) var heapCapacity = 0
    @exclusivity(unchecked) var records: UnsafeMutablePointer<Record>
    @exclusivity(unchecked) var recordCount = 0
    @exclusivity(unchecked) var recordCapacity = 0
    @exclusivity(unchecked) var freeHead = TimeoutSet.noSlot
    /// Entries a pass took off the heap because they were scheduled during it (C-T4); put back at its end.
    @exclusivity(unchecked) var deferred: UnsafeMutablePointer<Entry>
    @exclusivity(unchecked) var deferredCount = 0
    @exclusivity(unchecked) var deferredCapacity = 0
    /// Entries in the heap or deferred whose timeout was cancelled or moved earlier.
    @exclusivity(unchecked) var tombstones = 0
    @exclusivity(unchecked) private var liveCount = 0
    @exclusivity(unchecked) var toleranceNanoseconds: Int64
    /// Hands out insertion orders from the loop's own sequence, so ties with timers keep insertion order (C-T3).
    let orders: InsertionOrders
    /// Nil once invalidated.
    @exclusivity(unchecked) private var handler: (any TimeoutHandler)?
    /// The loop the set is in; nil once invalidated or when the loop is gone.
    @LoopReference private(set) var runLoop: RunLoop?
    private let ownerThread: pthread_t
    #if DEBUG
    var mutationsSinceCheck = 0
    #endif

    /// Creates an empty set of timeouts in `mode` of `loop` (every common mode for
    /// ``RunLoop/Mode/common``, including modes made common later, C-M5).
    ///
    /// - Parameters:
    ///   - loop: the run loop whose passes fire the timeouts; call from its thread.
    ///   - mode: the mode in which they fire.
    ///   - tolerance: how late each timeout may fire so that one wake-up serves several (C-T9);
    ///     negative values count as zero.
    ///   - handler: called for every timeout that fires.
    public init(
        on loop: RunLoop, forMode mode: RunLoop.Mode = .default, tolerance: Duration = .zero,
        handler: any TimeoutHandler
    ) {
        loop.checkThread("TimeoutSet(on:forMode:tolerance:handler:)")
        heap = GrowableBuffer.empty(of: Entry.self)
        records = GrowableBuffer.empty(of: Record.self)
        deferred = GrowableBuffer.empty(of: Entry.self)
        toleranceNanoseconds = max(tolerance.nanoseconds, 0)
        orders = loop.insertionOrders
        self.handler = handler
        runLoop = loop
        ownerThread = loop.ownerThread
        loop.attach(self, forMode: mode)
    }

    deinit {
        free(heap)
        free(records)
        free(deferred)
    }

    /// How many timeouts are scheduled.
    public var count: Int { liveCount }

    /// Whether no timeout is scheduled.
    public var isEmpty: Bool { liveCount == 0 }

    /// Whether the set is still in its run loop: ``invalidate()`` takes it out for good.
    public var isValid: Bool { handler != nil }

    /// How late any timeout may fire so that one wake-up serves several (C-T9); never negative.
    /// A change applies to the timeouts already scheduled.
    public var tolerance: Duration {
        get { .nanoseconds(toleranceNanoseconds) }
        set { toleranceNanoseconds = max(newValue.nanoseconds, 0) }
    }

    /// Schedules a timeout at `deadline`, on the loop's uptime clock, and returns its handle.
    ///
    /// The handler gets `tag` when it fires. A deadline in the past fires at the next pass (C-T1).
    /// Scheduling on an invalidated set returns a handle that is already stale.
    @discardableResult
    public func schedule(at deadline: Instant, tag: UInt64 = 0) -> Timeout {
        checkThread()
        deadline.checkUptimeDeadline("TimeoutSet.schedule(at:)")
        guard handler != nil else { return Timeout(slot: Self.noSlot, generation: 0) }
        let slot = takeFreeSlot()
        let order = orders.next()
        let key = deadline.nanoseconds
        let record = records + Int(slot)
        record.pointee.deadline = key
        record.pointee.order = order
        record.pointee.tagOrNextFree = tag
        liveCount += 1
        push(Entry(deadline: key, order: order, slot: slot, stamp: record.pointee.stamp))
        return Timeout(slot: slot, generation: record.pointee.generation)
    }

    /// Cancels `timeout`: it will not fire. Returns whether it was scheduled; a timeout that already
    /// fired or was cancelled, or a handle of another set, is left alone and gives `false`.
    @discardableResult
    public func cancel(_ timeout: Timeout) -> Bool {
        checkThread()
        guard isScheduled(timeout) else { return false }
        release(timeout.slot)
        tombstones += 1
        sweepIfNeeded()
        return true
    }

    /// Moves `timeout` to `deadline`; it goes after timeouts and timers already due then (C-T7).
    /// Returns whether it was scheduled (a stale handle moves nothing).
    ///
    /// A deadline no earlier than the current one is written in place, in O(1) (libev's
    /// `ev_timer_again`); an earlier one adds an entry and leaves the old one as a tombstone.
    @discardableResult
    public func reschedule(_ timeout: Timeout, to deadline: Instant) -> Bool {
        deadline.checkUptimeDeadline("TimeoutSet.reschedule(_:to:)")
        checkThread()
        guard isScheduled(timeout) else { return false }
        let record = records + Int(timeout.slot)
        let key = deadline.nanoseconds
        let order = orders.next()
        // The live entry's deadline is no later than the current one (``Record``): a key at or
        // after it keeps that entry, which is re-keyed when it reaches the top.
        let keepsEntry = key >= record.pointee.deadline
        record.pointee.deadline = key
        record.pointee.order = order
        guard !keepsEntry else { return true }
        advanceStamp(of: timeout.slot)
        tombstones += 1
        push(Entry(deadline: key, order: order, slot: timeout.slot, stamp: record.pointee.stamp))
        sweepIfNeeded()
        return true
    }

    /// Whether `timeout` is scheduled: it has neither fired nor been cancelled.
    public func isScheduled(_ timeout: Timeout) -> Bool {
        guard Int(timeout.slot) < recordCount else { return false }
        let record = records[Int(timeout.slot)]
        return record.generation == timeout.generation && record.isScheduled
    }

    /// The deadline of `timeout`, `nil` if it is not scheduled.
    public func deadline(of timeout: Timeout) -> Instant? {
        guard isScheduled(timeout) else { return nil }
        return Instant(nanoseconds: records[Int(timeout.slot)].deadline)
    }

    /// Cancels every timeout, takes the set out of its run loop and lets go of the handler.
    /// Idempotent; the set schedules nothing afterwards.
    public func invalidate() {
        checkThread()
        guard handler != nil else { return }
        handler = nil
        heapCount = 0
        deferredCount = 0
        tombstones = 0
        liveCount = 0
        for slot in 0..<recordCount where records[slot].isScheduled {
            records[slot].order = 0
            records[slot].generation &+= 1
        }
        runLoop?.detach(self)
        runLoop = nil
    }

    /// In debug builds, stops the program when called off the loop's thread.
    @inline(__always)
    private func checkThread() {
        assert(pthread_equal(ownerThread, pthread_self()) != 0, "TimeoutSet used off its run loop's thread")
    }

    // MARK: The slab

    private func takeFreeSlot() -> UInt32 {
        if freeHead != Self.noSlot {
            let slot = freeHead
            freeHead = UInt32(truncatingIfNeeded: records[Int(slot)].tagOrNextFree)
            return slot
        }
        if recordCount == recordCapacity { growRecords() }
        precondition(recordCount < Int(Self.noSlot), "TimeoutSet: more than 2³² − 2 timeouts")
        (records + recordCount).initialize(
            to: Record(deadline: 0, order: 0, tagOrNextFree: UInt64(Self.noSlot), generation: 0, stamp: 0))
        recordCount += 1
        return UInt32(recordCount - 1)
    }

    private func growRecords() {
        records = GrowableBuffer.grow(records, capacity: &recordCapacity)
    }

    /// Frees the slot of a timeout that fired or was cancelled: its handles go stale, and so does
    /// its live entry if still in the heap (a cancelled timeout's tombstone).
    @inline(__always)
    func release(_ slot: UInt32) {
        checkIndex(Int(slot), below: recordCount)
        advanceStamp(of: slot)
        let record = records + Int(slot)
        record.pointee.order = 0
        record.pointee.generation &+= 1
        record.pointee.tagOrNextFree = UInt64(freeHead)
        freeHead = slot
        liveCount -= 1
    }

    /// Makes the slot's live entry a tombstone. Stamps are 32 bits: before one wraps, a sweep
    /// removes every tombstone, so that none can carry the stamp the slot comes back to (at most
    /// once per 2³² changes of one slot).
    @inline(__always)
    private func advanceStamp(of slot: UInt32) {
        let record = records + Int(slot)
        if record.pointee.stamp == UInt32.max { sweep() }
        record.pointee.stamp &+= 1
    }

    // MARK: Firing (called by the run loop's timer pass)

    /// The key of the next timeout due at `limit` with an order given at or before `lastDueOrder`,
    /// after settling the top: tombstones go, a timeout moved later is re-keyed, and one scheduled
    /// during the pass is deferred to its end (C-T4).
    func nextDue(by limit: Int64, lastDueOrder: UInt64) -> Entry? {
        while true {
            settleTop()
            guard heapCount > 0, heap[0].deadline <= limit else { return nil }
            guard heap[0].order > lastDueOrder else { return heap[0] }
            if deferredCount == deferredCapacity { growDeferred() }
            deferred[deferredCount] = heap[0]
            deferredCount += 1
            _ = popTop()
        }
    }

    /// Fires the top timeout, which ``nextDue(by:lastDueOrder:)`` just returned.
    func fireTop() {
        let slot = heap[0].slot
        let record = records + Int(slot)
        let fired = Timeout(slot: slot, generation: record.pointee.generation)
        let tag = record.pointee.tagOrNextFree
        // Released while still on top: a sweep before a stamp wraps keeps the live minimum there.
        release(slot)
        _ = popTop()
        sweepIfNeeded()
        handler?.timeoutFired(fired, tag: tag)
    }

    /// Puts back the entries deferred by this pass (and any nested one) and drops the dead ones.
    func endPass() {
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

    /// The earliest deadline + tolerance (C-T9), after settling the top; `Int64.max` when empty.
    func hardDeadline() -> Int64 {
        settleTop()
        guard heapCount > 0 else { return Int64.max }
        let (limit, overflow) = heap[0].deadline.addingReportingOverflow(toleranceNanoseconds)
        return overflow ? Int64.max : limit
    }

    /// The latest deadline at or before `hard`, `nil` if none (``HeapWindow``). A tombstone may
    /// raise it to a time before `hard`, inside the window of the live timeout that set `hard`.
    func latestDeadline(atOrBefore hard: Int64) -> Int64? {
        var latest: Int64?
        HeapWindow.visit(
            count: heapCount, deadline: { heap[$0].deadline }, atOrBefore: { hard },
            body: { index in latest = max(latest ?? heap[index].deadline, heap[index].deadline) })
        return latest
    }

    /// The earliest deadline of a scheduled timeout, settling the top.
    func nextDeadline() -> Int64? {
        settleTop()
        return heapCount > 0 ? heap[0].deadline : nil
    }
}

@available(*, unavailable)
extension TimeoutSet: Sendable {}
