import FoundationEssentials
import RunLoopKit

/// Foundation's `Timer` (block-based), with Darwin's behaviour, over a RunLoopKit timer.
///
/// Where Foundation on Linux differs from Darwin, this follows Darwin (decisions.md 1):
/// `Timer(timeInterval:repeats:block:)` first fires one interval after it is made, not at once;
/// ``tolerance`` is honoured (clamped to half the interval of a repeating timer); a repeating timer
/// with an interval of zero or less repeats every 0.1 ms; an invalidated timer keeps the date it
/// last fired. A late repeating timer fires once and skips the ticks it missed (CFRunLoop's rule).
///
/// The run loop holds a scheduled timer, and the timer its block, until ``invalidate()``: capture
/// owners weakly in the block. A timer belongs to its run loop's thread and is not `Sendable`.
///
/// ```swift
/// var ticks = 0
/// let timer = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true) { timer in
///     ticks += 1
///     if ticks == 3 { timer.invalidate() }
/// }
/// timer.tolerance = 0.01
/// RunLoop.current.run(until: Date(timeIntervalSinceNow: 1))
/// ```
public final class Timer {
    /// The RunLoopKit timer that does the work: its `handle` lets other threads invalidate it.
    public let base: RunLoopKit.Timer
    /// The clock on which dates are converted: the current loop's when made, its run loop's once added.
    private var clock: TimeSource
    /// The date last given or computed for the fire time `instant`: ``fireDate`` returns it as long
    /// as the timer still fires at `instant`, as CF returns the date it was given.
    private var knownDate: (date: Date, instant: Instant)

    /// Arbitrary data the timer carries for its owner.
    public var userInfo: Any?

    /// Creates an unscheduled timer that first fires at `date` and, if `repeats`, every `interval`
    /// seconds after it; add it with ``RunLoop/add(_:forMode:)-(Timer,_)``.
    @available(*, noasync)
    public init(fire date: Date, interval: TimeInterval, repeats: Bool, block: @escaping (Timer) -> Void) {
        let clock = RunLoopKit.RunLoop.current.timeSource
        let instant = WallClock.instant(for: date, on: clock)
        self.clock = clock
        knownDate = (date, instant)
        // The RunLoopKit timer holds the block and releases it when invalidated, however that
        // happens; it reaches this object weakly (see `schedule(on:forMode:)`).
        let reference = WeakReference()
        base = RunLoopKit.Timer(fireAt: instant, interval: WallClock.duration(interval), repeats: repeats) { base in
            guard let timer = reference.timer else { return }
            block(timer)
            if !base.repeats { base.userInfo = nil }
        }
        reference.timer = self
    }

    /// Creates an unscheduled timer that first fires `interval` seconds from now (Darwin; Linux
    /// Foundation fires it at once).
    @available(*, noasync)
    public convenience init(timeInterval interval: TimeInterval, repeats: Bool, block: @escaping (Timer) -> Void) {
        let clock = RunLoopKit.RunLoop.current.timeSource
        self.init(
            fire: WallClock.now(on: clock).addingTimeInterval(interval), interval: interval, repeats: repeats,
            block: block)
    }

    /// Creates a timer that first fires `interval` seconds from now and adds it to the current
    /// thread's run loop in the default mode.
    @available(*, noasync)
    @discardableResult
    public static func scheduledTimer(
        withTimeInterval interval: TimeInterval, repeats: Bool, block: @escaping (Timer) -> Void
    ) -> Timer {
        let timer = Timer(timeInterval: interval, repeats: repeats, block: block)
        RunLoop.current.add(timer, forMode: .default)
        return timer
    }

    /// The repeat interval in seconds; 0 for a one-shot timer.
    public var timeInterval: TimeInterval {
        WallClock.seconds(base.interval)
    }

    /// The next fire date (the last one once the timer is invalid).
    ///
    /// A date is converted to the run loop's uptime clock when it is set, as CF converts it to
    /// `mach_absolute_time`: the timer then fires after that much uptime even if the wall clock
    /// jumps, and reading it returns the date that was set. After the timer moves on by itself (a
    /// repeating timer's next tick) it reads as the wall-clock date of its uptime fire time.
    /// Setting it inside the timer's own block replaces the next tick; a date in the past fires at once.
    public var fireDate: Date {
        get {
            let instant = base.fireDate
            if instant != knownDate.instant {
                knownDate = (WallClock.date(for: instant, on: clock), instant)
            }
            return knownDate.date
        }
        set {
            base.fireDate = WallClock.instant(for: newValue, on: clock)
            knownDate = (newValue, base.fireDate)
        }
    }

    /// How late the timer may fire, in seconds; clamped to half the interval of a repeating timer.
    public var tolerance: TimeInterval {
        get { WallClock.seconds(base.tolerance) }
        set { base.tolerance = WallClock.duration(max(newValue, 0)) }
    }

    /// Whether the timer can still fire.
    public var isValid: Bool {
        base.isValid
    }

    /// Runs the block now; a one-shot timer is then invalid, a repeating one keeps its schedule.
    public func fire() {
        base.fire()
    }

    /// Stops the timer for good and takes it out of its run loop; safe inside its own block.
    public func invalidate() {
        base.invalidate()
        base.userInfo = nil
    }

    /// Adds the timer to `loop` in `mode`; dates are converted on `loop`'s clock from now on.
    ///
    /// The RunLoopKit timer's block reaches this object weakly, so that an unscheduled timer nobody
    /// holds goes away; while the loop holds the RunLoopKit timer, that timer holds this object in
    /// its `userInfo`, released when the timer is invalidated here or fires its last time. (A
    /// timer invalidated through `base.handle` keeps the pair until its loop goes; its block, and
    /// what the block holds, are released all the same.)
    func schedule(on loop: RunLoop, forMode mode: RunLoop.Mode) {
        clock = loop.base.timeSource
        loop.base.add(base, forMode: mode.base)
        if base.isValid { base.userInfo = self }
    }

    /// How the RunLoopKit timer's block reaches the `Timer` made around it.
    private final class WeakReference {
        weak var timer: Timer?
    }
}
