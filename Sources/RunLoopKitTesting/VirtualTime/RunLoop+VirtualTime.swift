import RunLoopKit

/// The operations a test drives a loop on a `VirtualClock` with: advance, run what is due,
/// run until idle, jump, set the wall clock, sleep the machine, and how the loop's own waits move
/// time (autojump).
extension RunLoop {
    /// How a loop on a `VirtualClock` moves time when a run would wait for its next deadline.
    public enum Autojump: Sendable, Equatable {
        /// It jumps to the deadline at once when no input is ready (the default).
        case immediately
        /// It waits for input for this long in real time first, and jumps only if none came: work
        /// on other threads (real I/O, a server under test) gets its turn before time moves. A
        /// wait of zero or less is ``immediately``.
        case after(Duration)
        /// It never jumps: a run waits for input or a wake-up, and time moves only by
        /// ``advance(by:inMode:)``, ``advance(to:inMode:)``, ``jump(by:inMode:)``,
        /// ``runUntilIdle(inMode:limit:)`` or the clock itself.
        case off
    }

    /// How the loop's waits move a `VirtualClock` (``Autojump``); ignored on other clocks.
    public var autojump: Autojump {
        get {
            guard let delay = autojumpDelay else { return .off }
            return delay > .zero ? .after(delay) : .immediately
        }
        set {
            switch newValue {
            case .immediately: autojumpDelay = .zero
            case .after(let delay): autojumpDelay = max(delay, .zero)
            case .off: autojumpDelay = nil
            }
        }
    }

    /// How many passes at one virtual instant the virtual-time operations (``runCurrent(inMode:)``,
    /// ``advance(to:inMode:)``, ``runUntilIdle(inMode:limit:)``) allow before they throw a
    /// ``VirtualTimeError/Kind/runaway`` error; 10,000 unless set.
    public var runawayPassLimit: Int {
        get { passLimitAtOneInstant }
        set { passLimitAtOneInstant = newValue }
    }

    /// Runs `body` with ``autojump`` ``Autojump/off``, then restores it: inside, time moves only when
    /// the test moves it.
    @available(*, noasync)
    public func withAutojumpSuspended<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let previous = autojump
        autojump = .off
        defer { autojump = previous }
        return try body()
    }

    /// Runs what is due now in `mode`, without moving time: due timers and sleepers, queued blocks,
    /// signalled sources and executor jobs, pass after pass until none is left (kotlinx's
    /// `runCurrent`). Throws ``VirtualTimeError/Kind/runaway`` after ``runawayPassLimit`` passes
    /// with virtual time standing still, naming the timer due first and where it was made.
    @available(*, noasync)
    public func runCurrent(inMode mode: Mode = .default) throws(VirtualTimeError) {
        _ = try virtualClockForTesting("runCurrent(inMode:)")
        var instant = now
        var passes = 0
        while hasWorkNow(inMode: mode) {
            if now != instant {
                instant = now
                passes = 0
            }
            if passes >= runawayPassLimit { throw runawayError(inMode: mode, after: "\(passes) passes") }
            run(mode: mode, until: .zero)
            passes += 1
        }
    }

    /// Moves time forward by `duration` in `mode`, stopping at every deadline on the way: each
    /// timer and sleeper fires in deadline order (equal deadlines in the order they were added),
    /// with the loop's `now` equal to its deadline in its callout, and a repeating timer fires at each of
    /// its grid points. Ends at the target with what is due there run (``runCurrent(inMode:)``).
    @available(*, noasync)
    public func advance(by duration: Duration, inMode mode: Mode = .default) throws(VirtualTimeError) {
        try advance(to: now + max(duration, .zero), inMode: mode)
    }

    /// Moves time forward to `instant` (uptime) in `mode`; see ``advance(by:inMode:)``. An instant
    /// in the past only runs what is due now.
    @available(*, noasync)
    public func advance(to instant: Instant, inMode mode: Mode = .default) throws(VirtualTimeError) {
        let clock = try virtualClockForTesting("advance(to:inMode:)")
        try runCurrent(inMode: mode)
        while let next = nextFireDate(forMode: mode), next <= instant {
            clock.advance(to: next)
            try runCurrent(inMode: mode)
        }
        clock.advance(to: instant)
        try runCurrent(inMode: mode)
    }

    /// Moves time forward by `duration` at once, as after the machine slept with the loop
    /// suspended (sinon's `jump`): what fell due in the gap fires once, and a repeating timer that
    /// missed several of its grid points fires once and goes on at the next point after now (CF's
    /// skip of missed slots, C-T6). Uptime moves too: unlike ``sleepMachine(for:inMode:)``, this is
    /// time the loop saw pass.
    @available(*, noasync)
    public func jump(by duration: Duration, inMode mode: Mode = .default) throws(VirtualTimeError) {
        let clock = try virtualClockForTesting("jump(by:inMode:)")
        clock.advance(to: now + max(duration, .zero))
        try runCurrent(inMode: mode)
    }

    /// Sets the wall clock to `instant`, earlier or later, as a clock set by hand or stepped by
    /// NTP is (sinon's `setSystemTime`), and runs what is due in `mode`. Uptime and continuous time
    /// stand still, so timers and sleepers do not move; a dispatch timer on the wall clock re-arms
    /// on the new reading, and fires now if its deadline has passed.
    ///
    /// A daylight-saving or time-zone change is not such a change: the wall clock counts UTC
    /// (`CLOCK_REALTIME`), which neither moves, and no clock of the loop does.
    @available(*, noasync)
    public func setWall(to instant: Instant, inMode mode: Mode = .default) throws(VirtualTimeError) {
        let clock = try virtualClockForTesting("setWall(to:inMode:)")
        clock.setWall(to: instant)
        try runCurrent(inMode: mode)
    }

    /// From now on the wall clock moves `numerator / denominator` as fast as uptime (each clamped
    /// to 1…1000), as a wall clock slewed by NTP or drifting does: every advance, jump or autojump
    /// moves it that much, exactly (the nanoseconds' fractions carried), while timers, sleepers and
    /// continuous time follow uptime. A dispatch timer on the wall clock re-arms at the uptime its
    /// deadline comes at. `(1, 1)` puts the clocks back in step. Runs what is due in `mode`.
    @available(*, noasync)
    public func setWallRate(_ numerator: Int64, per denominator: Int64, inMode mode: Mode = .default)
        throws(VirtualTimeError)
    {
        let clock = try virtualClockForTesting("setWallRate(_:per:inMode:)")
        clock.setWallRate(numerator, per: denominator)
        try runCurrent(inMode: mode)
    }

    /// Simulates the machine asleep for `duration` with the program suspended (seed G3), and runs
    /// what is due in `mode` as it wakes. Uptime stands still, as CF's clock does while the machine
    /// sleeps: a timer or sleeper waits as long after the wake as it had left before. Continuous
    /// and wall time move on by `duration`: a dispatch timer on either whose deadline passed in
    /// the gap fires at once. Unlike ``jump(by:inMode:)``, this
    /// is time the loop did not see pass.
    @available(*, noasync)
    public func sleepMachine(for duration: Duration, inMode mode: Mode = .default) throws(VirtualTimeError) {
        let clock = try virtualClockForTesting("sleepMachine(for:inMode:)")
        clock.sleepMachine(for: duration)
        try runCurrent(inMode: mode)
    }

    /// Runs `mode` until nothing is scheduled in it (kotlinx's `advanceUntilIdle`): time jumps from
    /// deadline to deadline, as in ``advance(to:inMode:)``, until no timer, sleeper or timeout is
    /// left but background timers (`Timer`'s `isBackground`), which fire on the way. Throws
    /// ``VirtualTimeError/Kind/notIdle`` after `limit` deadlines, listing what is still scheduled
    /// (a repeating timer that is not a background timer never lets a mode become idle).
    @available(*, noasync)
    public func runUntilIdle(inMode mode: Mode = .default, limit: Int = 10_000) throws(VirtualTimeError) {
        let clock = try virtualClockForTesting("runUntilIdle(inMode:limit:)")
        try runCurrent(inMode: mode)
        var deadlines = 0
        while let next = nextFireDate(forMode: mode), hasForegroundSchedule(inMode: mode) {
            guard deadlines < limit else {
                throw VirtualTimeError(
                    kind: .notIdle, instant: now,
                    message: "mode \(mode) was still not idle after \(limit) deadlines, at \(now)",
                    registrations: registrations(inMode: mode))
            }
            clock.advance(to: next)
            try runCurrent(inMode: mode)
            deadlines += 1
        }
    }

    /// The loop's `VirtualClock`, or an error naming `call` when its clock is not one.
    private func virtualClockForTesting(_ call: String) throws(VirtualTimeError) -> VirtualClock {
        checkThread(call)
        guard case .virtual(let clock) = timeSource else {
            throw .notVirtual(call, loop: self)
        }
        return clock
    }

    /// The runaway error for `mode` after `work` (such as "50 passes") ran at one instant, naming
    /// what is due now.
    func runawayError(inMode mode: Mode, after work: String) -> VirtualTimeError {
        let due = registrations(inMode: mode).filter { $0.fireDate.map { $0 <= now } ?? false }
        let culprit = due.first.map { "\($0)" } ?? "executor jobs or blocks that keep queuing more"
        return VirtualTimeError(
            kind: .runaway, instant: now,
            message: "\(work) ran with virtual time standing still at \(now): \(culprit)",
            registrations: due)
    }
}
