/// A run loop timer: `NSTimer`/`CFRunLoopTimer` with Darwin's semantics on Linux.
///
/// A timer fires its block on the thread of the run loop it was added to, in the modes it was
/// added for. A one-shot timer invalidates itself after firing (seed T1). A repeating timer stays on
/// the grid of its first fire date: when it fires late it fires once, then continues at the next grid
/// point after now, skipping missed ticks (seed T3, runloop-reference C-T6).
///
/// The run loop holds a scheduled timer strongly and the timer holds its block strongly until
/// ``invalidate()`` (seed L1): capture owners weakly in the block (see the lifetime-safe APIs).
/// A timer belongs to at most one run loop (C-T2) and is not `Sendable`; other threads use ``handle``.
///
/// Making and adding a one-shot timer costs one allocation, the timer object, when its block
/// captures at most one object (`self`, or one object holding what the block needs): Swift then
/// uses that object as the closure's context. A block that captures two values or more allocates
/// a context of its own as well; so does a repeating timer, or any timer while a ``VirtualClock``
/// exists (its state beyond a one-shot's, and where it was made, are kept apart).
///
/// ```swift
/// let timer = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true) { timer in
///     print("tick at", timer.fireDate)
/// }
/// timer.tolerance = .milliseconds(100)
/// RunLoop.current.run(until: RunLoop.current.now + .seconds(5))
/// timer.invalidate()
/// ```
public final class Timer {
    // The timer's state is only touched on its run loop's thread and never re-entrantly (no
    // field is mutated while an access to it is open: each is read or written whole), so the
    // dynamic exclusivity checks are turned off on every stored field: with them, adding and
    // invalidating a timer paid `swift_beginAccess` calls and their thread-local lookups, about
    // 9 % of the profile of scheduling and cancelling 1M timers (timerdeck-bench's cancel row). What every timer needs is stored
    // inline and the rest in `Extras`, so that a one-shot timer, with or without tolerance, is a
    // 72-byte object (an 80-byte allocation); the fields are declared in layout order.

    /// Scheduled fire time on the uptime clock, in nanoseconds.
    @exclusivity(unchecked) var fireNanoseconds: Int64
    @exclusivity(unchecked) private var block: ((Timer) -> Void)?
    /// The run loop the timer belongs to while it is in at least one of its modes (C-T2); a timer
    /// that outlives its loop belongs to none.
    ///
    /// `unowned`, not `weak`: a weak reference made a side table per timer (one more allocation per
    /// scheduled timer) and an atomic load on every invalidation, about a tenth of the profile of
    /// scheduling and firing 1M timers. An unowned reference lives in the loop's own header and is
    /// checked on every read in every build: the loop clears it when the timer leaves its last mode
    /// and, for the timers still in its modes, when it goes away (``RunLoop/releaseTimers()``), so a
    /// read after the loop died would trap with the runtime's message, never touch freed memory.
    @exclusivity(unchecked) unowned var runLoop: RunLoop? {
        didSet { loopIdentity = runLoop.map(ObjectIdentifier.init) }
    }
    /// The identity of ``runLoop``, kept with it: asking whether the timer is still a loop's, after
    /// each callout of a repeating timer, then reads no unowned reference (a read is an atomic
    /// retain and a release). Only `nil` or a loop that lives, since the loop clears ``runLoop``.
    @exclusivity(unchecked) private var loopIdentity: ObjectIdentifier?
    /// The slot of the timer's record in the first ``TimerQueue`` it is in; those in further queues are in `extras`.
    @exclusivity(unchecked) private var firstSlot = QueueSlot.none
    @exclusivity(unchecked) private var extras: Extras?
    /// The timer's yes-or-no state in one byte (``Flags``).
    @exclusivity(unchecked) private var flags = Flags.valid
    /// The tolerance in nanoseconds when it is below `UInt32.max` (4.29 s); `UInt32.max` says it is
    /// in `extras` instead. Four bytes fit after the flags without growing the object.
    /// The queues copy it into the timer's records (``TimerQueue`` invariant 5).
    @exclusivity(unchecked) private(set) var compactTolerance: UInt32 = 0

    /// What a timer is, and is doing, that fits a bit: one byte, so that a flag more does not grow
    /// the object past its 80-byte allocation.
    private struct Flags: OptionSet {
        let rawValue: UInt8
        /// Not invalidated.
        static let valid = Flags(rawValue: 1 << 0)
        /// Its own callout runs (C-T4).
        static let firing = Flags(rawValue: 1 << 1)
        /// Its own callout set its fire date: the run loop keeps that date (C-T6, C-T7).
        static let fireDateSetInCallout = Flags(rawValue: 1 << 2)
        /// A common-mode item of its run loop (C-M4).
        static let commonItem = Flags(rawValue: 1 << 3)
        /// The one-shot timer of a sleeping task (``isSleeper``).
        static let sleeper = Flags(rawValue: 1 << 4)
        /// A timer nothing waits for (``isBackground``).
        static let background = Flags(rawValue: 1 << 5)
    }

    /// True while the timer's own callout runs (C-T4).
    private(set) var isFiring: Bool {
        get { flags.contains(.firing) }
        set { setFlag(.firing, newValue) }
    }
    /// True when the timer's own callout set its fire date: the run loop keeps that date (C-T6, C-T7).
    private(set) var fireDateSetInCallout: Bool {
        get { flags.contains(.fireDateSetInCallout) }
        set { setFlag(.fireDateSetInCallout, newValue) }
    }
    /// True while the timer is a common-mode item of its run loop (C-M4).
    var isCommonItem: Bool {
        get { flags.contains(.commonItem) }
        set { setFlag(.commonItem, newValue) }
    }
    private var validity: Bool {
        get { flags.contains(.valid) }
        set { setFlag(.valid, newValue) }
    }

    @inline(__always)
    private func setFlag(_ flag: Flags, _ on: Bool) {
        if on { flags.insert(flag) } else { flags.remove(flag) }
    }

    /// State that a plain one-shot timer does not need, allocated on first use.
    ///
    /// The fields a repeating timer's fire reads and writes are, like the timer's own, only touched
    /// on its loop's thread, each read or written whole with no access spanning a callout: their
    /// dynamic exclusivity checks are off (a frame of a display link paid three of them).
    private final class Extras {
        /// Repeat interval in nanoseconds; 0 for a one-shot timer (C-T11).
        @exclusivity(unchecked) var intervalNanoseconds: Int64 = 0
        /// Effective tolerance in nanoseconds, already clamped (C-T9), when it is 4.29 s or longer.
        var toleranceNanoseconds: Int64 = 0
        /// The fire time last serviced by the run loop, reported by ``fireDate`` once invalid (C-T8);
        /// only repeating timers need it (a one-shot is invalidated at the time it fired).
        @exclusivity(unchecked) var lastFireNanoseconds: Int64?
        /// Slots in the queues after the first one (a common-mode timer is in two or more).
        @exclusivity(unchecked) var moreSlots: [QueueSlot] = []
        var userInfo: Any?
        var shared: TimerShared?
        /// The name in the `timer` dimension of the loop's metrics (``RunLoop/setMetricsName(_:for:)``).
        var metricsName: String?
        /// Where the timer was made (``creationSite``), kept while a ``VirtualClock`` exists.
        var creationFile: StaticString?
        var creationLine: UInt = 0
        /// Run when the timer leaves its loop (``leftLoop()``).
        var whenLeavingLoop: (() -> Void)?
    }

    /// Creates an unscheduled timer; add it to a run loop with ``RunLoop/add(_:forMode:)-(Timer,_)``.
    ///
    /// - Parameters:
    ///   - fireDate: the first fire time on the uptime clock; a time in the past means "as soon as added" (C-T1).
    ///   - interval: the repeat interval. Ignored for a one-shot timer (its ``interval`` reads zero, C-T11);
    ///     a repeating timer with an interval ≤ 0 repeats every 0.1 ms (decisions.md 1).
    ///   - repeats: whether the timer repeats.
    ///   - file: the file that makes the timer, named by the diagnostics of tests on a
    ///     ``VirtualClock``; leave the default.
    ///   - line: the line that makes the timer; leave the default.
    ///   - block: called on the run loop's thread with the timer itself (seed L2a).
    public init(
        fireAt fireDate: Instant, interval: Duration, repeats: Bool, file: StaticString = #fileID,
        line: UInt = #line, block: @escaping (Timer) -> Void
    ) {
        fireDate.checkUptimeDeadline("Timer(fireAt:)")
        fireNanoseconds = fireDate.nanoseconds
        self.block = block
        if repeats {
            extrasForWriting().intervalNanoseconds = interval.nanoseconds > 0 ? interval.nanoseconds : 100_000
        }
        if VirtualClock.anyExists { setCreationSite(file: file, line: line) }
    }

    /// Creates a timer and adds it to `runLoop` (the current thread's by default) in `mode` (seed M1).
    ///
    /// The first fire is one `interval` from now.
    @available(*, noasync)
    @discardableResult
    public static func scheduledTimer(
        withInterval interval: Duration,
        repeats: Bool,
        on runLoop: RunLoop? = nil,
        forMode mode: RunLoop.Mode = .default,
        file: StaticString = #fileID,
        line: UInt = #line,
        block: @escaping (Timer) -> Void
    ) -> Timer {
        let loop = runLoop ?? RunLoop.current
        let timer = Timer(
            fireAt: loop.now + interval, interval: interval, repeats: repeats, file: file, line: line, block: block)
        loop.add(timer, forMode: mode)
        return timer
    }

    /// The next scheduled fire time on the uptime clock.
    ///
    /// Setting it repositions the timer in every mode it is in; a time in the past means "now"
    /// (C-T7). A repeating timer's grid continues from the new time. Inside the timer's own callout,
    /// a time set replaces the next grid point (C-T6): a time in the past fires it again at once, in
    /// the same run. An invalidated timer reports the last date it fired (C-T8, decisions.md 1).
    public var fireDate: Instant {
        get { Instant(nanoseconds: fireNanoseconds) }
        set {
            newValue.checkUptimeDeadline("Timer.fireDate")
            guard validity else { return }
            var target = newValue.nanoseconds
            if let loop = runLoop {
                loop.checkThread("Timer.fireDate")
                target = loop.notBeforeNow(target)
                fireNanoseconds = target
                if isFiring {
                    fireDateSetInCallout = true
                } else {
                    loop.reposition(self)
                }
            } else {
                fireNanoseconds = target
            }
        }
    }

    /// Sets the next fire time from inside the timer's own callout, to `nanoseconds`, which is not
    /// in the past: what setting ``fireDate`` there does (C-T6), without reading the loop to check
    /// the thread and the time, which such a date needs neither of (a display link's frames). Debug
    /// builds check both.
    func rearmInOwnCallout(at nanoseconds: Int64) {
        assert(isFiring && validity, "Timer: rearmInOwnCallout(at:) outside the timer's own callout")
        assert(
            runLoop.map { $0.isOnOwnerThread && nanoseconds >= $0.now.nanoseconds } ?? false,
            "Timer: rearmInOwnCallout(at:) off the loop's thread, or to a time in the past")
        fireNanoseconds = nanoseconds
        fireDateSetInCallout = true
    }

    /// The repeat interval; zero for a one-shot timer.
    public var interval: Duration { .nanoseconds(intervalNanoseconds) }

    /// Repeat interval in nanoseconds; 0 for a one-shot timer (C-T11).
    var intervalNanoseconds: Int64 { extras?.intervalNanoseconds ?? 0 }

    /// Effective tolerance in nanoseconds, already clamped (C-T9).
    @inline(__always)
    var toleranceNanoseconds: Int64 {
        compactTolerance == UInt32.max ? extras?.toleranceNanoseconds ?? 0 : Int64(compactTolerance)
    }

    /// Whether the timer repeats.
    public var repeats: Bool { intervalNanoseconds > 0 }

    /// How late the timer may fire to let the run loop wake once for several timers.
    ///
    /// Clamped to half the interval for a repeating timer, never negative (C-T9). Tolerance never
    /// moves the grid. The run loop fires a timer no earlier than its fire date and no later than
    /// fire date + tolerance: it wakes at the latest fire time that keeps every due window intact.
    public var tolerance: Duration {
        get { .nanoseconds(toleranceNanoseconds) }
        set {
            var value = max(newValue.nanoseconds, 0)
            if intervalNanoseconds > 0 { value = min(value, intervalNanoseconds / 2) }
            if value < Int64(UInt32.max) {
                compactTolerance = UInt32(value)
            } else {
                compactTolerance = UInt32.max
                extrasForWriting().toleranceNanoseconds = value
            }
            // The queues keep the tolerance in the timer's records (TimerQueue invariant 5).
            if isQueued, let loop = runLoop {
                loop.checkThread("Timer.tolerance")
                forEachQueueID { queueID in loop.withQueue(withID: queueID) { $0.retolerate(self) } }
            }
        }
    }

    /// Whether the timer can still fire.
    public var isValid: Bool {
        validity && !(extras?.shared?.invalidationRequested ?? false)
    }

    /// Arbitrary data the timer carries for its owner.
    public var userInfo: Any? {
        get { extras?.userInfo }
        set { extrasForWriting().userInfo = newValue }
    }

    /// The modes the timer is in, empty when it is not scheduled.
    public var modes: [RunLoop.Mode] {
        runLoop?.modes(containing: self) ?? []
    }

    /// A `Sendable` handle through which other threads invalidate the timer or move its fire date (seed T4).
    public var handle: Handle {
        let extras = extrasForWriting()
        if let shared = extras.shared { return Handle(shared: shared) }
        let shared = TimerShared()
        shared.setOwner(of: self)
        extras.shared = shared
        return Handle(shared: shared)
    }

    /// Runs the block now, without touching the schedule of a repeating timer; a one-shot timer is
    /// invalidated (seed T2, C-T11). Does nothing if the timer is invalid.
    public func fire() {
        guard isValid, let block else { return }
        block(self)
        if intervalNanoseconds == 0 { invalidate() }
    }

    /// Stops the timer for good: removes it from every mode of its run loop and releases the block.
    ///
    /// Idempotent, and safe inside the timer's own callout (C-T8). From another thread use ``handle``.
    public func invalidate() {
        guard validity else { return }
        validity = false
        if let extras {
            extras.shared?.markInvalid()
            // C-T8, decisions.md 1: an invalid timer keeps the date it last fired.
            if let last = extras.lastFireNanoseconds { fireNanoseconds = last }
        }
        // One load of the weak reference serves the thread check and the detach.
        if let loop = runLoop {
            loop.checkThread("Timer.invalidate()")
            loop.detach(self)
        }
        block = nil
    }

    /// Runs the callout for the fire time being serviced; called by the run loop only (C-T4, C-T5).
    func runCallout() {
        guard let block else { return }
        isFiring = true
        fireDateSetInCallout = false
        if let extras, extras.intervalNanoseconds > 0 { extras.lastFireNanoseconds = fireNanoseconds }
        block(self)
        isFiring = false
    }

    /// Marks the timer valid-or-not after another thread's request; called on the owner's thread.
    func applyRemoteRequests() {
        guard let shared = extras?.shared else { return }
        if shared.invalidationRequested {
            invalidate()
        } else if let requested = shared.takeRequestedFireDate() {
            fireDate = requested
        }
    }

    /// The run loop adopted or released the timer; keeps the cross-thread handle pointing at the owner.
    func ownerChanged() {
        extras?.shared?.setOwner(of: self)
    }

    /// What to do when the timer is in no mode of its loop any more: taken out of its last mode,
    /// invalidated, or its loop went away. An owner that holds the timer only while it is
    /// scheduled, and is held by the timer's block, lets go of it here (a display link).
    func whenLeavingLoop(_ action: @escaping () -> Void) {
        extrasForWriting().whenLeavingLoop = action
    }

    /// The timer left its loop (``whenLeavingLoop(_:)``); the loop calls it, once per stay.
    func leftLoop() {
        extras?.whenLeavingLoop?()
    }

    /// The timer's loop is going away with the timer still in its queue `queueID`: it belongs to no
    /// loop from now on. A timer in several queues leaves once, from the first one it is in. The
    /// loop is not read: it is being deinitialized, and a load of the unowned reference would trap.
    func loopWentAway(visitedFrom queueID: Int32) {
        runLoop = nil
        if firstSlot.queue == queueID { leftLoop() }
    }

    /// The name the loop's metrics give the timer; it lives and dies with the timer, so no other
    /// timer can inherit it (not even one allocated at the same address).
    package var metricsName: String? {
        get { extras?.metricsName }
        set { extrasForWriting().metricsName = newValue }
    }

    /// Where the timer was made (`#fileID` and line), if it was made while a ``VirtualClock`` existed.
    package var creationSite: (file: StaticString, line: UInt)? {
        guard let extras, let file = extras.creationFile else { return nil }
        return (file, extras.creationLine)
    }

    /// Records where the timer was made (a sleep's timer records the sleep's caller).
    func setCreationSite(file: StaticString, line: UInt) {
        let extras = extrasForWriting()
        extras.creationFile = file
        extras.creationLine = line
    }

    /// Forgets where the timer was made: a timer made for a caller whose site is not known (a
    /// runtime sleep in RunLoopKitTesting's virtual-time scope), which would otherwise name the
    /// line that made it on the caller's behalf.
    package func forgetCreationSite() {
        extras?.creationFile = nil
        extras?.creationLine = 0
    }

    /// Whether the timer is a sleep's one-shot timer rather than a plain timer. A flag, not a field
    /// of `extras`: every sleep marks its timer, and would otherwise allocate them.
    package var isSleeper: Bool {
        get { flags.contains(.sleeper) }
        set { setFlag(.sleeper, newValue) }
    }

    /// Whether the timer is a background timer: one that nothing waits for, such as a heartbeat,
    /// a metrics flush or a cache sweep, most often repeating. The loop fires it like any other
    /// timer; only RunLoopKitTesting's checks on a `VirtualClock` read the mark. There its loop's
    /// `runUntilIdle(inMode:limit:)` ends once only background timers are left (they fire on the
    /// way), a virtual-time test's task that waits while only background timers are scheduled is
    /// a deadlock, and a background timer left when the test ends is no leak. So a test whose only
    /// other timer is a 1 Hz heartbeat ends instead of moving time forever. Mark only a timer no
    /// task awaits: a task waiting for what it does would be reported as a deadlock. `false`
    /// unless set; a flag, so the timer stays as small as it was.
    ///
    /// ```swift
    /// let heartbeat = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true) { _ in
    ///     print("still here")
    /// }
    /// heartbeat.isBackground = true
    /// ```
    public var isBackground: Bool {
        get { flags.contains(.background) }
        set { setFlag(.background, newValue) }
    }

    /// Whether the timer has allocated its rarely used state (a repeating timer, a handle, user
    /// info, a metrics name, a tolerance of 4.29 s or more): a one-shot timer with a shorter tolerance has not.
    var hasExtras: Bool { extras != nil }

    private func extrasForWriting() -> Extras {
        if let extras { return extras }
        let created = Extras()
        extras = created
        return created
    }
}

// MARK: Queue membership

extension Timer {
    /// Whether the timer is in any queue.
    var isQueued: Bool { firstSlot.queue >= 0 }

    /// Whether the timer belongs to `loop` (``runLoop``), without reading the unowned reference.
    @inline(__always)
    func belongs(to loop: RunLoop) -> Bool {
        loopIdentity == ObjectIdentifier(loop)
    }

    /// The slot of the timer's record in `queue` (``TimerQueue`` invariant 2), `nil` if it is not there.
    @inline(__always)
    func slot(in queue: Int32) -> Int32? {
        if firstSlot.queue == queue { return firstSlot.record }
        guard let more = extras?.moreSlots, !more.isEmpty else { return nil }
        return more.first { $0.queue == queue }?.record
    }

    /// Records the record of a queue the timer has just joined.
    func recordSlot(_ record: Int32, in queue: Int32) {
        if firstSlot.queue < 0 {
            firstSlot = QueueSlot(queue: queue, record: record)
        } else {
            extrasForWriting().moreSlots.append(QueueSlot(queue: queue, record: record))
        }
    }

    /// Forgets the slot of a queue the timer has left. The first slot is kept inline while the
    /// timer is in any queue, so `isQueued` needs no look into `extras`.
    func forgetSlot(in queue: Int32) {
        if firstSlot.queue == queue {
            if let extras, !extras.moreSlots.isEmpty {
                firstSlot = extras.moreSlots.removeFirst()
            } else {
                firstSlot = .none
            }
        } else {
            extras?.moreSlots.removeAll { $0.queue == queue }
        }
    }

    /// Calls `body` with the id of every queue the timer is in; `body` may take the timer out of them.
    @inline(__always)
    func forEachQueueID(_ body: (Int32) -> Void) {
        let first = firstSlot.queue
        guard let more = extras?.moreSlots, !more.isEmpty else {
            if first >= 0 { body(first) }
            return
        }
        // A copy: `body` may take the timer out of its queues.
        if first >= 0 { body(first) }
        for slot in more { body(slot.queue) }
    }

    /// The ids of the queues the timer is in, in ascending order (the order their modes were created).
    var queueIDs: [Int32] {
        var ids: [Int32] = []
        forEachQueueID { ids.append($0) }
        return ids.sorted()
    }
}
