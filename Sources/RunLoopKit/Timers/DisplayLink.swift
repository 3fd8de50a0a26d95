internal import TimeUnits

/// A frame-synchronised timer: `CADisplayLink` on a virtual vsync grid (seeds D1–D4, decisions.md 8).
///
/// Added to a run loop for one or more modes, it calls back once per display refresh (60 Hz by
/// default) while one of those modes runs — every ``frameInterval``-th refresh. Refreshes sit on a
/// grid of the uptime clock (`v_k = origin + k / refreshRate`, exact integer arithmetic); callbacks
/// always land on it. A callback slower than a frame makes the link skip refreshes and stay on its
/// grid (`v_k0`, `v_k0+N`, …), never queue them (D3); the same happens after the link's mode was
/// not running (M4: a link in the default mode pauses while the loop tracks).
///
/// The run loop holds the link while it is scheduled, and the link holds its callback until
/// ``invalidate()`` (C-D1): capture owners weakly in the callback.
///
/// ```swift
/// let link = DisplayLink { link in
///     draw(frameAt: link.timestamp, next: link.targetTimestamp)
/// }
/// link.add(to: RunLoop.current, forMode: .default)
/// ```
public final class DisplayLink {
    // The link's state is only touched on its run loop's thread and no access to a field spans a
    // callout (each is read or written whole, the callback runs after the frame's fields are set),
    // so the dynamic exclusivity checks are off on the fields a frame touches: with them, a frame
    // paid runtime calls and their thread-local lookups, about a tenth of the CPU of a simulated
    // day of frames (timerdeck-bench --virtual-day-only).

    /// Refreshes per second of the virtual display.
    public let refreshRate: Int
    @exclusivity(unchecked) private var callback: ((DisplayLink) -> Void)?
    /// The run loop timer that ticks on the vsync grid while the link is scheduled. Its block holds
    /// the link, and the loop holds the timer: the loop keeps a scheduled link alive (C-D1), and a
    /// link taken out of its last mode goes away with its timer unless its owner keeps it.
    ///
    /// Held strongly, and let go of when the timer leaves its loop (``Timer/whenLeavingLoop(_:)``),
    /// which breaks the cycle. A weak reference did the same but gave the timer a side table, so
    /// that each frame's retains and releases of it took the runtime's slow path.
    @exclusivity(unchecked) private var timer: Timer?
    /// The loop the link belongs to; not owned, so a link that outlives its loop belongs to none.
    @LoopReference private(set) var runLoop: RunLoop?
    @exclusivity(unchecked) private var origin: Int64 = 0
    /// Slot index of the callback phase: callbacks happen at slots `phase + k × frameInterval`.
    @exclusivity(unchecked) private var phase: Int64 = 0
    /// The slot a frame last armed the timer for, and that slot's point of the grid: the next
    /// frame, if the timer's fire date is still that vsync, knows its slot and the next slot's
    /// vsync without a division.
    @exclusivity(unchecked) private var armedSlot: Int64 = 0
    @exclusivity(unchecked) private var armedPoint = GridPoint(vsync: Int64.min, remainder: 0)
    /// One refresh period: `10⁹ / refreshRate` nanoseconds, and the remainder of that division.
    private let period: (nanoseconds: Int64, remainder: Int64)
    @exclusivity(unchecked) private var validity = true

    /// The vsync time of the frame being handled (valid in and after the first callback).
    @exclusivity(unchecked) public private(set) var timestamp: Instant = .zero
    /// The vsync time of the next callback's frame.
    @exclusivity(unchecked) public private(set) var targetTimestamp: Instant = .zero
    /// The refresh period; zero until the first callback (C-D2).
    public var duration: Duration { .nanoseconds(durationNanoseconds) }
    /// ``duration`` as a frame sets it: a `Duration` is made when it is read, not at every frame.
    @exclusivity(unchecked) private var durationNanoseconds: Int64 = 0
    /// Callback slots skipped because a callback or the loop was too slow (D3).
    @exclusivity(unchecked) public private(set) var skippedFrames = 0
    /// Callbacks made so far.
    @exclusivity(unchecked) package private(set) var frameCount = 0
    /// The name of the link's frames in the `timer` dimension of the loop's metrics, as
    /// ``RunLoop/setMetricsName(_:for:)`` names a timer's fires; `nil` for none.
    public var metricsName: String? {
        didSet { timer?.metricsName = metricsName }
    }
    /// Called after each callback while ``frames`` is iterated (rule C-X3).
    @exclusivity(unchecked) var frameObserver: ((DisplayLink) -> Void)?

    /// Creates a link for a display refreshing `refreshRate` times a second (clamped to 1…1000).
    public init(refreshRate: Int = 60, callback: @escaping (DisplayLink) -> Void) {
        self.refreshRate = min(max(refreshRate, 1), 1_000)
        let (nanoseconds, remainder) = Nanoseconds.perSecond.quotientAndRemainder(dividingBy: Int64(self.refreshRate))
        period = (nanoseconds, remainder)
        self.callback = callback
    }

    /// Calls back every N-th refresh; values below 1 are clamped to 1 (decisions.md 8). Changing it
    /// restarts the phase at the next refresh.
    @exclusivity(unchecked) public var frameInterval: Int = 1 {
        didSet {
            frameInterval = max(frameInterval, 1)
            if frameInterval != oldValue { restartPhase() }
        }
    }

    /// The callback rate asked for, as it was set: 0 (the default) means the refresh rate; other
    /// values pick the nearest rate that divides the refresh rate (C-D3), which sets
    /// ``frameInterval``. The rate that results is ``effectiveFramesPerSecond``.
    ///
    /// ```swift
    /// let link = DisplayLink(refreshRate: 60) { _ in }
    /// link.preferredFramesPerSecond = 24
    /// // link.preferredFramesPerSecond == 24, link.effectiveFramesPerSecond == 20
    /// ```
    public var preferredFramesPerSecond = 0 {
        didSet {
            guard preferredFramesPerSecond > 0 else {
                frameInterval = 1
                return
            }
            let divisors = (1...refreshRate).filter { refreshRate % $0 == 0 }
            frameInterval =
                divisors.min {
                    abs(refreshRate / $0 - preferredFramesPerSecond) < abs(refreshRate / $1 - preferredFramesPerSecond)
                } ?? 1
        }
    }

    /// The callback rate in effect: the refresh rate divided by ``frameInterval``.
    public var effectiveFramesPerSecond: Int { refreshRate / frameInterval }

    /// Suspends callbacks while `true`; resuming continues at the next refresh (C-D4).
    @exclusivity(unchecked) public var isPaused = false {
        didSet {
            guard isPaused != oldValue, let timer else { return }
            if isPaused {
                timer.fireDate = .distantFuture
            } else {
                restartPhase()
            }
        }
    }

    /// Whether the link can still call back.
    public var isValid: Bool { validity }

    /// The modes the link is scheduled in.
    public var modes: [RunLoop.Mode] { timer?.modes ?? [] }

    /// Schedules the link in `mode` of `loop` (or every common mode). Like a timer (C-T2), a link
    /// belongs to one run loop while it is in any of its modes; adding it to another loop then does nothing.
    public func add(to loop: RunLoop, forMode mode: RunLoop.Mode) {
        guard validity else { return }
        if timer != nil, let runLoop, runLoop !== loop { return }
        loop.add(timer ?? makeTimer(on: loop), forMode: mode)
    }

    /// The timer of a link joining `loop`: its vsync grid starts now, first callback at the next refresh.
    private func makeTimer(on loop: RunLoop) -> Timer {
        runLoop = loop
        origin = loop.now.nanoseconds
        phase = 1
        armedPoint.vsync = Int64.min
        // A loop never changes its time source: the block keeps it, and hands it to each frame
        // borrowed, so a frame reads the time with no reference taken (through the loop or a field
        // of the link, a retain and a release each time).
        let timeSource = loop.timeSource
        let timer = Timer(fireAt: Instant(nanoseconds: vsync(phase)), interval: .seconds(3_600), repeats: true) {
            self.fire($0, reading: timeSource)
        }
        if isPaused { timer.fireDate = .distantFuture }
        timer.metricsName = metricsName
        // The block holds the link while the timer exists, so the link outlives this action.
        timer.whenLeavingLoop { [unowned self] in self.timer = nil }
        self.timer = timer
        return timer
    }

    /// Takes the link out of `mode` (or out of the common modes).
    public func remove(from loop: RunLoop, forMode mode: RunLoop.Mode) {
        guard let timer, runLoop === loop else { return }
        loop.remove(timer, forMode: mode)
    }

    /// Moves the link from `old` to `new` mode of `loop`, keeping its vsync grid.
    public func move(in loop: RunLoop, from old: RunLoop.Mode, to new: RunLoop.Mode) {
        guard let timer, runLoop === loop else { return }
        loop.move(timer, from: old, to: new)
    }

    /// Removes the link from every mode and releases the callback (D4, C-D1); idempotent.
    public func invalidate() {
        guard validity else { return }
        validity = false
        timer?.invalidate()
        timer = nil
        callback = nil
        frameObserver = nil
    }

    /// A point of the vsync grid: the vsync time of a slot, and the remainder of the division that
    /// gives it (`slot × 10⁹ mod refreshRate`), from which the next slot's follows by additions.
    private struct GridPoint {
        var vsync: Int64
        var remainder: Int64
    }

    /// The vsync time of slot `index`.
    private func vsync(_ index: Int64) -> Int64 {
        point(index).vsync
    }

    /// The grid point of slot `index`: one division.
    private func point(_ index: Int64) -> GridPoint {
        let (offset, remainder) = (index * Nanoseconds.perSecond).quotientAndRemainder(dividingBy: Int64(refreshRate))
        return GridPoint(vsync: origin + offset, remainder: remainder)
    }

    /// The grid point of the slot after that of `point`, one period on: no division (a division
    /// costs as much as the rest of a frame).
    private func point(after point: GridPoint) -> GridPoint {
        var next = GridPoint(vsync: point.vsync + period.nanoseconds, remainder: point.remainder + period.remainder)
        if next.remainder >= Int64(refreshRate) {
            next.vsync += 1
            next.remainder -= Int64(refreshRate)
        }
        return next
    }

    /// The first slot whose vsync is strictly after `time`.
    private func slot(after time: Int64) -> Int64 {
        max((time - origin) * Int64(refreshRate) / Nanoseconds.perSecond + 1, 0)
    }

    /// The first callback slot (phase + k × interval) whose vsync is strictly after `time`.
    private func callbackSlot(after time: Int64) -> Int64 {
        let candidate = max(slot(after: time), phase)
        let interval = Int64(frameInterval)
        let offset = (candidate - phase) % interval
        var next = offset == 0 ? candidate : candidate + interval - offset
        while vsync(next) <= time { next += interval }
        return next
    }

    private func restartPhase() {
        guard let timer, let runLoop, !isPaused else { return }
        phase = slot(after: runLoop.now.nanoseconds)
        timer.fireDate = Instant(nanoseconds: vsync(phase))
    }

    /// A frame, in the callout of `timer`, which the firing pass holds: taken as the callout's
    /// argument, not read from the link (a retain and a release a frame). `timeSource` is the
    /// loop's, the link's.
    private func fire(_ timer: Timer, reading timeSource: TimeSource) {
        guard self.timer === timer, let callback else { return }
        assert(timer.runLoop === runLoop, "DisplayLink: its timer fires in another loop than the link's")
        let now = timeSource.now(.uptime).nanoseconds
        let interval = Int64(frameInterval)
        // The timer is armed at a vsync, so its slot starts at its fire date, and the slot is the
        // one the last frame armed it for: a frame on time makes no division.
        var start = timer.fireNanoseconds
        var slot: Int64
        let startPoint: GridPoint
        if start == armedPoint.vsync {
            slot = armedSlot
            startPoint = armedPoint
        } else {
            slot = self.slot(after: start - 1)
            startPoint = point(slot)
        }
        assert(start == startPoint.vsync, "DisplayLink: its timer is armed off the vsync grid")
        var endPoint = point(after: startPoint)
        if now - start >= endPoint.vsync - start {
            // The loop could not run this frame (another mode, a slow pass): skip to the grid (D3, M4).
            // C-D1, decisions.md 2: a callback slot whose vsync is exactly now has not passed.
            let next = callbackSlot(after: now - 1)
            skippedFrames += Int((next - slot) / interval)
            let nextPoint = point(next)
            guard nextPoint.vsync == now else {
                (armedSlot, armedPoint) = (next, nextPoint)
                timer.rearmInOwnCallout(at: nextPoint.vsync)
                return
            }
            (slot, start, endPoint) = (next, nextPoint.vsync, point(after: nextPoint))
        }
        let end = endPoint.vsync
        timestamp = Instant(nanoseconds: start)
        targetTimestamp = Instant(nanoseconds: interval == 1 ? end : vsync(slot + interval))
        durationNanoseconds = end - start
        frameCount += 1
        callback(self)
        frameObserver?(self)
        guard validity, !isPaused, self.timer === timer else { return }
        // D3: a callback slower than a frame skips the slots it overran; it never queues them. A
        // callback done within its frame, a frame at a time, is followed by the next slot, which
        // starts at this one's end.
        let after = max(timeSource.now(.uptime).nanoseconds, start)
        let next = interval == 1 && after < end ? slot + 1 : callbackSlot(after: after)
        if next != slot + interval { skippedFrames += Int((next - slot) / interval) - 1 }
        armedSlot = next
        armedPoint = next == slot + 1 ? endPoint : point(next)
        timer.rearmInOwnCallout(at: armedPoint.vsync)
    }
}
