import Glibc

/// The timers of one run loop mode, on the records every run loop timer rests on
/// (``TimerRecords``): a 32-byte record per timer in a slab of structs and a 24-byte entry in a
/// 4-ary min-heap ordered by (fire time, insertion order), as libev keeps its timers. Schedule is
/// O(log n), cancel O(1) (lazy, with tombstones bounded by count), a move later O(1) in place; a
/// pass takes the due timers off the top in order. CFRunLoop and swift-nio cancel by scanning.
///
/// A record's `payload` is its timer's reference and its `word` the timer's tolerance and parked flag.
///
/// Invariants (in debug builds, ``isConsistent`` checks 1–5 after mutations, and
/// ``checkWindowInDebugBuilds(_:)`` checks 6 when a remembered window is used; the records keep
/// their own, ``TimerRecords``):
/// 1. **Order.** Ties keep insertion order: orders are unique per run loop and grow (C-T3,
///    decisions.md 2), and a timer's order is renewed whenever it is repositioned (C-T7).
/// 2. **Records.** A timer in the queue holds one record for as long as it is there
///    (``Timer/slot(in:)`` is its slot), and the record holds the timer, so removal and
///    repositioning find it in O(1). A sift writes nothing into the records or the timer objects
///    (with an index in each timer, writing it on every step of a sift was a third of the profile
///    of firing 1M timers: a cache miss per step).
/// 3. **Parked timers.** A timer a pass has taken off the top (``popFirst(dueBy:)``) is still in
///    the mode, its record flagged parked and its live entry held by the pass, which is on the
///    stack: the pass fires it (then invalidates or repositions it) or puts it back before it
///    returns. ``parkedCount`` counts them.
/// 4. **Ownership.** The queue holds one reference to the timer of each record; the reference of
///    a parked timer belongs to the pass that took it.
/// 5. **Tolerance.** Each record holds its timer's tolerance (C-T9), so the wake-up window is found
///    in the heap and the records alone; ``retolerate(_:)`` refreshes it when the tolerance changes.
/// 6. **Remembered window.** ``window``, when known, is the wake-up window of the timers in the
///    heap as they are now; every mutation keeps it or forgets it (``noteAdded(_:)``, ``noteRemoved(_:)``).
///
/// It is only touched on the run loop's thread and never re-entrantly: its storage is plain
/// buffers and its fields are `@exclusivity(unchecked)`, so the hot paths pay neither copy-on-write
/// uniqueness checks nor dynamic exclusivity checks.
final class TimerQueue {
    /// A timer's entry as a pass takes it off the heap, with the timer. `Unmanaged` because the
    /// reference is owned by hand (invariant 4): the pass hands a popped timer's reference to its
    /// callout and releases it once, instead of a retain and release around every callout (with the
    /// removal of each fired one-shot, about 25 % of the 1M all-due run's profile when the pass did that).
    struct Entry {
        var key: TimerRecords.Entry
        var timer: Unmanaged<Timer>

        var deadline: Int64 { key.deadline }
        var order: UInt64 { key.order }

        @inline(__always)
        func precedes(_ other: Entry) -> Bool { key.precedes(other.key) }
    }

    /// Identifies this queue in the timers' slots.
    let id: Int32
    @exclusivity(unchecked) private var records = TimerRecords()
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

    /// The parked flag of a record's `word` (invariant 3).
    private static let parkedFlag: UInt32 = 1 << 31
    /// The tolerance a record's `word` holds when the timer's is this many nanoseconds (2.1 s) or
    /// more: it is read from the timer.
    private static let toleranceInTimer: UInt32 = parkedFlag - 1

    /// An empty queue.
    init(id: Int32) {
        self.id = id
    }

    deinit {
        forEachTimer { timer in
            timer.forgetSlot(in: id)
            Unmanaged.passUnretained(timer).release()
        }
        records.deallocate()
    }

    /// How many timers the mode holds, parked ones included.
    var count: Int { records.liveCount }
    var isEmpty: Bool { count == 0 }

    func contains(_ timer: Timer) -> Bool {
        timer.slot(in: id) != nil
    }

    /// The entry of the timer that fires next, `nil` when the heap is empty (parked timers are not in it).
    func nextToFire() -> Entry? {
        guard let top = records.settledTop() else { return nil }
        return Entry(key: top, timer: timer(in: top.slot))
    }

    /// Calls `body` with the timer of every record that is not parked; `body` may not change the queue.
    func forEachTimer(_ body: (Timer) -> Void) {
        records.forEachScheduled { slot in
            guard !isParked(slot) else { return }
            timer(in: slot)._withUnsafeGuaranteedRef(body)
        }
    }

    /// Calls `body` with the key and timer of every timer that is not parked, in no particular order.
    func forEachEntry(_ body: (Entry) -> Void) {
        records.forEachScheduled { slot in
            guard !isParked(slot) else { return }
            let record = records.slab[Int(slot)]
            let key = TimerRecords.Entry(
                deadline: record.deadline, order: record.order, slot: slot, stamp: record.stamp)
            body(Entry(key: key, timer: timer(in: slot)))
        }
    }

    /// Adds `timer` with the given fire time; `order` must be unique and increasing per run loop.
    func insert(_ timer: Timer, deadline: Int64, order: UInt64) {
        let reference = Unmanaged.passRetained(timer).toOpaque()
        let slot = records.schedule(deadline: deadline, order: order, payload: UInt64(UInt(bitPattern: reference)))
        records.slab[Int(slot)].word = Self.toleranceWord(of: timer)
        timer.recordSlot(Int32(bitPattern: slot), in: id)
        noteAdded(slot)
        checkInvariantsInDebugBuilds()
    }

    /// Removes `timer`; does nothing if it is not here.
    func remove(_ timer: Timer) {
        guard let slot = slot(of: timer) else { return }
        timer.forgetSlot(in: id)
        defer { checkInvariantsInDebugBuilds() }
        guard !isParked(slot) else {
            // Its reference is the pass's, which releases it (invariant 4).
            parkedCount -= 1
            records.cancel(slot, entryOut: true)
            return
        }
        noteRemoved(slot)
        records.cancel(slot)
        // The queue's reference is `timer` itself: no need to read the record.
        Unmanaged.passUnretained(timer).release()
    }

    /// Moves `timer` to a new fire time and order: it goes after timers already due at that time.
    /// A parked timer goes back into the heap with a reference of its own; the pass's entry goes
    /// stale, and ``putBack(_:)`` releases the pass's reference. A parked timer whose entry is the
    /// held top (the last taken, with nothing done to the heap since) is re-keyed in place and
    /// keeps the pass's entry and reference: ``putBack(_:)`` then does nothing.
    func update(_ timer: Timer, deadline: Int64, order: UInt64) {
        guard let slot = slot(of: timer) else { return }
        let parked = isParked(slot)
        if parked {
            parkedCount -= 1
        } else {
            noteRemoved(slot)
        }
        records.slab[Int(slot)].word = Self.toleranceWord(of: timer)
        let rekeyedInPlace = records.move(slot, deadline: deadline, order: order, entryOut: parked)
        // Back in the heap with a reference of its own, unless its entry was the held top, re-keyed
        // in place: the pass's entry is then the heap's again, and so is the pass's reference.
        if parked && !rekeyedInPlace { _ = Unmanaged.passRetained(timer) }
        noteAdded(slot)
        checkInvariantsInDebugBuilds()
    }

    /// Refreshes the tolerance in `timer`'s record after it changed (invariant 5).
    func retolerate(_ timer: Timer) {
        guard let slot = slot(of: timer) else { return }
        let parked = isParked(slot)
        if !parked { noteRemoved(slot) }
        records.slab[Int(slot)].word = Self.toleranceWord(of: timer) | (parked ? Self.parkedFlag : 0)
        if !parked { noteAdded(slot) }
    }

    /// Takes the top entry off the heap if it is due at `limit`, parking its timer (invariant 3):
    /// the caller owns the entry's reference and must fire the timer or ``putBack(_:)`` the entry.
    func popFirst(dueBy limit: Int64) -> Entry? {
        guard let top = records.settledTop(), top.deadline <= limit else { return nil }
        noteRemoved(top.slot)
        // Held in place (TimerRecords invariant 5): a repeating timer goes on with one sift.
        _ = records.holdTop()
        records.slab[Int(top.slot)].word |= Self.parkedFlag
        parkedCount += 1
        checkInvariantsInDebugBuilds()
        return Entry(key: top, timer: timer(in: top.slot))
    }

    /// Puts a parked timer's entry back, taking over its reference; if it is no longer the timer's
    /// live entry (the timer was removed, or repositioned back in), the reference is released.
    func putBack(_ entry: Entry) {
        let slot = entry.key.slot
        if records.isLive(entry.key) && !isParked(slot) {
            // Re-keyed in place while held (``update(_:deadline:order:)``): the heap has the entry
            // and the queue the reference already.
            return
        }
        guard records.putBack(entry.key) else {
            entry.timer.release()
            return
        }
        // A removal or a move changes the stamp: an entry still live is its parked timer's.
        assert(
            isParked(slot) && records.slab[Int(slot)].payload == UInt64(UInt(bitPattern: entry.timer.toOpaque())),
            "TimerQueue \(id): a live entry put back for slot \(slot) is not its parked timer's")
        records.slab[Int(slot)].word &= ~Self.parkedFlag
        parkedCount -= 1
        noteAdded(slot)
        checkInvariantsInDebugBuilds()
    }

    // MARK: Records

    /// `timer`'s slot here (invariant 2), `nil` if it is not here.
    @inline(__always)
    private func slot(of timer: Timer) -> UInt32? {
        timer.slot(in: id).map { UInt32(bitPattern: $0) }
    }

    @inline(__always)
    private func isParked(_ slot: UInt32) -> Bool {
        records.slab[Int(slot)].word & Self.parkedFlag != 0
    }

    /// The timer of a scheduled record.
    @inline(__always)
    private func timer(in slot: UInt32) -> Unmanaged<Timer> {
        let payload = records.slab[Int(slot)].payload
        assert(payload != 0 && records.slab[Int(slot)].isScheduled, "TimerQueue \(id): slot \(slot) has no timer")
        // The payload of a scheduled record is the bit pattern of its timer's reference (invariant 2).
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: UInt(payload)).unsafelyUnwrapped)
    }

    /// The `word` of `timer`'s record, not parked: its tolerance, or ``toleranceInTimer``.
    @inline(__always)
    private static func toleranceWord(of timer: Timer) -> UInt32 {
        min(timer.compactTolerance, toleranceInTimer)
    }

    /// The fire time + tolerance of the timer in `slot` (C-T9), `Int64.max` on overflow.
    @inline(__always)
    private func latest(_ slot: UInt32) -> Int64 {
        let record = records.slab[Int(slot)]
        let word = record.word & ~Self.parkedFlag
        let tolerance =
            word == Self.toleranceInTimer
            ? timer(in: slot)._withUnsafeGuaranteedRef { $0.toleranceNanoseconds } : Int64(word)
        let (sum, overflow) = record.deadline.addingReportingOverflow(tolerance)
        return overflow ? Int64.max : sum
    }

    /// The wake-up window of the mode's timers within `bound` (C-T9): `hard` is the earliest
    /// "fire time + tolerance" (no later than `bound`), `wake` the latest fire time at or before
    /// `hard`, `nil` if none. Timers firing now are left out when `skippingFiring` (C-T4).
    ///
    /// One walk of the entries due by `hard` finds both (a second only when a later entry narrowed
    /// `hard` below the `wake` already found), reading the heap and the records, not the timers
    /// (invariant 5). The answer is remembered (invariant 6): the next wake-up with the same bound
    /// and no timer firing reuses it until a timer inside the window comes or goes, so a wake-up
    /// pays for the window once, not at every pass.
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
        // Entries are lower bounds of their records' keys (TimerRecords invariant 3): the walk
        // visits every timer whose fire time is at or before `hard`, and reads that time from its record.
        visitTimers(
            atOrBefore: { hard }, skippingFiring: skippingFiring,
            body: { slot, deadline in
                // The walk visits timers due by `hard`, and `latest` ≥ `deadline`: still due after this.
                hard = min(hard, latest(slot))
                wake = max(wake ?? deadline, deadline)
            })
        if let found = wake, found > hard {
            // A timer visited later narrowed `hard` below fire times found before it.
            wake = nil
            visitTimers(
                atOrBefore: { hard }, skippingFiring: skippingFiring,
                body: { _, deadline in wake = max(wake ?? deadline, deadline) })
        }
        return Window(bound: bound, hard: hard, wake: wake)
    }

    /// Calls `body` with the slot and fire time of every timer in the heap due at or before
    /// `bound()`, leaving out firing timers when `skippingFiring`.
    private func visitTimers(
        atOrBefore bound: () -> Int64, skippingFiring: Bool, body: (UInt32, Int64) -> Void
    ) {
        records.visitEntries(
            atOrBefore: bound,
            body: { entry in
                guard records.isLive(entry) else { return }
                let deadline = records.slab[Int(entry.slot)].deadline
                guard deadline <= bound() else { return }
                if skippingFiring && timer(in: entry.slot)._withUnsafeGuaranteedRef({ $0.isFiring }) { return }
                body(entry.slot, deadline)
            })
    }

    /// Keeps the remembered window true after the timer in `slot` joined the heap (invariant 6): one
    /// due after the window's end changes nothing; one inside it may raise the wake; one whose own
    /// window ends earlier moves the end, and the window is found again at the next wake-up.
    @inline(__always)
    private func noteAdded(_ slot: UInt32) {
        let deadline = records.slab[Int(slot)].deadline
        guard let known = window, deadline <= known.hard else { return }
        if latest(slot) < known.hard {
            window = nil
        } else {
            window!.wake = max(known.wake ?? deadline, deadline)
        }
    }

    /// Keeps the remembered window true before the timer in `slot` leaves the heap or changes
    /// (invariant 6): only the timer that set its end or its wake can change it.
    @inline(__always)
    private func noteRemoved(_ slot: UInt32) {
        let deadline = records.slab[Int(slot)].deadline
        guard let known = window, deadline <= known.hard else { return }
        if latest(slot) == known.hard || deadline == known.wake { window = nil }
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
        assert(isConsistent, "TimerQueue \(id): records, slots, tolerances or parked count broken")
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

    /// Whether invariants 2–5 hold, with the records' own: each scheduled record's timer holding
    /// its slot (each timer appearing once), the parked count and each record's tolerance (for tests).
    var isConsistent: Bool {
        var seen = Set<ObjectIdentifier>()
        var parked = 0
        var consistent = records.isConsistent(entriesOut: parkedCount)
        records.forEachScheduled { slot in
            let timer = timer(in: slot).takeUnretainedValue()
            if isParked(slot) { parked += 1 }
            let word = records.slab[Int(slot)].word & ~Self.parkedFlag
            if !seen.insert(ObjectIdentifier(timer)).inserted || self.slot(of: timer) != slot
                || word != Self.toleranceWord(of: timer)
            {
                consistent = false
            }
        }
        return consistent && parked == parkedCount
    }

    /// Entries in the heap, tombstones included (for tests of the bound on tombstones).
    var entryCount: Int { records.entryCount }

    /// Tombstones in the heap (for tests of the bound on tombstones).
    var tombstoneCount: Int { records.tombstones }
}
