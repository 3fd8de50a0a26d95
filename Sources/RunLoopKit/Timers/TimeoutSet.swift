import Glibc

/// Many one-shot timeouts of one run loop, without an object per timeout: for code that keeps
/// thousands to millions of them (a deadline per connection, per request, per retry).
///
/// A run loop keeps every timer as a 32-byte record in a slab of structs and a 24-byte entry in a
/// 4-ary heap ordered by (deadline, insertion order), as libev keeps its timers. A ``Timer`` adds
/// its own object to that, with a closure and a reference to its loop: fine for the dozens of
/// timers of an interface, costly for a server's idle timeouts. A timeout set keeps its timeouts in
/// the records alone, 56 bytes each. Scheduling, cancelling, rescheduling and firing allocate
/// nothing once the set has grown to its working size. One ``TimeoutHandler`` serves every
/// timeout; a 64-bit tag, given when scheduling, tells the handler which one fired. Use ``Timer``
/// for repeating timers, timers that need their own block, fire date edits from other threads or
/// metrics names; use a timeout set when the timeouts are many and alike.
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

    /// The set's timeouts: a record's `payload` is the timeout's tag and its `word` the slot's
    /// generation, which moves on when the slot is freed, so that handles survive a move.
    @exclusivity(unchecked) var records = TimerRecords()
    @exclusivity(unchecked) var toleranceNanoseconds: Int64
    /// Hands out insertion orders from the loop's own sequence, so ties with timers keep insertion order (C-T3).
    let orders: InsertionOrders
    /// Nil once invalidated.
    @exclusivity(unchecked) private var handler: (any TimeoutHandler)?
    /// The loop the set is in; nil once invalidated or when the loop is gone.
    @LoopReference private(set) var runLoop: RunLoop?
    private let ownerThread: pthread_t

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
        toleranceNanoseconds = max(tolerance.nanoseconds, 0)
        orders = loop.insertionOrders
        self.handler = handler
        runLoop = loop
        ownerThread = loop.ownerThread
        loop.attach(self, forMode: mode)
    }

    deinit {
        records.deallocate()
    }

    /// How many timeouts are scheduled.
    public var count: Int { records.liveCount }

    /// Whether no timeout is scheduled.
    var isEmpty: Bool { records.liveCount == 0 }

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
        guard handler != nil else { return Timeout(slot: TimerRecords.noSlot, generation: 0) }
        let slot = records.schedule(deadline: deadline.nanoseconds, order: orders.next(), payload: tag)
        return Timeout(slot: slot, generation: records.slab[Int(slot)].word)
    }

    /// Cancels `timeout`: it will not fire. Returns whether it was scheduled; a timeout that already
    /// fired or was cancelled, or a handle of another set, is left alone and gives `false`.
    @discardableResult
    public func cancel(_ timeout: Timeout) -> Bool {
        checkThread()
        guard isScheduled(timeout) else { return false }
        endGeneration(of: timeout.slot)
        records.cancel(timeout.slot)
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
        records.move(timeout.slot, deadline: deadline.nanoseconds, order: orders.next())
        return true
    }

    /// Whether `timeout` is scheduled: it has neither fired nor been cancelled.
    public func isScheduled(_ timeout: Timeout) -> Bool {
        guard Int(timeout.slot) < records.slabCount else { return false }
        let record = records.slab[Int(timeout.slot)]
        return record.word == timeout.generation && record.isScheduled
    }

    /// The deadline of `timeout`, `nil` if it is not scheduled.
    public func deadline(of timeout: Timeout) -> Instant? {
        guard isScheduled(timeout) else { return nil }
        return Instant(nanoseconds: records.slab[Int(timeout.slot)].deadline)
    }

    /// Cancels every timeout, takes the set out of its run loop and lets go of the handler.
    /// Idempotent; the set schedules nothing afterwards.
    public func invalidate() {
        checkThread()
        guard handler != nil else { return }
        handler = nil
        // Every handle goes stale with the records (``isScheduled(_:)`` finds no slot), and the
        // memory goes now, not when the set does.
        records.deallocate()
        records = TimerRecords()
        runLoop?.detach(self)
        runLoop = nil
    }

    /// In debug builds, stops the program when called off the loop's thread.
    @inline(__always)
    private func checkThread() {
        assert(pthread_equal(ownerThread, pthread_self()) != 0, "TimeoutSet used off its run loop's thread")
    }

    /// Moves the slot's generation on as its timeout fires or is cancelled: its handles go stale,
    /// and stay stale when the slot serves another timeout.
    @inline(__always)
    private func endGeneration(of slot: UInt32) {
        records.slab[Int(slot)].word &+= 1
    }

    // MARK: Firing (called by the run loop's timer pass)

    /// The key of the next timeout due at `limit` with an order given at or before `lastDueOrder`,
    /// after settling the top: tombstones go, a timeout moved later is re-keyed, and one scheduled
    /// during the pass is deferred to its end (C-T4).
    func nextDue(by limit: Int64, lastDueOrder: UInt64) -> TimerRecords.Entry? {
        while let top = records.settledTop(), top.deadline <= limit {
            guard top.order > lastDueOrder else { return top }
            records.deferTop()
        }
        return nil
    }

    /// Fires the top timeout, which ``nextDue(by:lastDueOrder:)`` just returned.
    func fireTop() {
        let slot = records.heap[0].slot
        let fired = Timeout(slot: slot, generation: records.slab[Int(slot)].word)
        let tag = records.slab[Int(slot)].payload
        endGeneration(of: slot)
        records.cancelTop()
        handler?.timeoutFired(fired, tag: tag)
    }

    /// Puts back the entries deferred by this pass (and any nested one) and drops the dead ones.
    func endPass() {
        records.restoreDeferred()
    }

    /// The earliest deadline + tolerance (C-T9), after settling the top; `Int64.max` when empty.
    func hardDeadline() -> Int64 {
        guard let top = records.settledTop() else { return Int64.max }
        let (limit, overflow) = top.deadline.addingReportingOverflow(toleranceNanoseconds)
        return overflow ? Int64.max : limit
    }

    /// The latest deadline at or before `hard`, `nil` if none (``HeapWindow``). A tombstone or an
    /// entry moved later may raise it to a time before `hard`, inside the window of the live
    /// timeout that set `hard`.
    func latestDeadline(atOrBefore hard: Int64) -> Int64? {
        var latest: Int64?
        records.visitEntries(atOrBefore: { hard }, body: { latest = max(latest ?? $0.deadline, $0.deadline) })
        return latest
    }

    /// The earliest deadline of a scheduled timeout, settling the top.
    func nextDeadline() -> Int64? {
        records.settledTop()?.deadline
    }

    /// Whether the records' invariants hold (for tests).
    var isConsistent: Bool { records.isConsistent(entriesOut: 0) }

    /// Entries in the heap and deferred, tombstones included (for tests of the bound on tombstones).
    var entryCount: Int { records.entryCount }

    /// Tombstones in the heap and deferred (for tests of the bound on tombstones).
    var tombstoneCount: Int { records.tombstones }
}

@available(*, unavailable)
extension TimeoutSet: Sendable {}
