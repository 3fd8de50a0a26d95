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

    /// How much may run with virtual time standing still before it is a runaway: a task that never
    /// waits (`while true { await Task.yield() }`) or a timer that re-arms itself at the same
    /// instant would otherwise keep a test busy forever.
    ///
    /// The defaults stop either in a fraction of a second of real time.
    ///
    /// ```swift
    /// let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    /// loop.runawayLimits = RunLoop.RunawayLimits(jobs: 1_000_000)  // a test that starts many tasks at once
    /// ```
    public struct RunawayLimits: Sendable, Equatable {
        /// Executor jobs at one instant — each a task's stretch between two suspensions, or an
        /// actor's turn; 100,000 unless set.
        public var jobs: Int
        /// Passes of the loop at one instant; 10,000 unless set.
        public var passes: Int

        /// Limits of `jobs` executor jobs and `passes` passes at one instant; each at least 1.
        public init(jobs: Int = 100_000, passes: Int = 10_000) {
            precondition(jobs > 0 && passes > 0, "RunLoop.RunawayLimits: each limit must be positive")
            self.jobs = jobs
            self.passes = passes
        }
    }

    /// What the virtual-time operations (``runCurrent(inMode:)``, ``advance(to:inMode:)``,
    /// ``runUntilIdle(inMode:limit:)``), `VirtualTime.run` and `VirtualTime.test` on this loop
    /// allow at one virtual instant before they throw a ``VirtualTimeError/Kind/runaway`` error.
    public var runawayLimits: RunawayLimits {
        get { RunawayLimits(jobs: jobLimitAtOneInstant, passes: passLimitAtOneInstant) }
        set { (jobLimitAtOneInstant, passLimitAtOneInstant) = (newValue.jobs, newValue.passes) }
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
    /// `runCurrent`). Throws ``VirtualTimeError/Kind/runaway`` once ``runawayLimits`` is reached
    /// with virtual time standing still, naming the timer due first and where it was made, or the
    /// tasks that yield without waiting.
    @available(*, noasync)
    public func runCurrent(inMode mode: Mode = .default) throws(VirtualTimeError) {
        _ = try virtualClockForTesting("runCurrent(inMode:)")
        var count = RunawayCount(on: self)
        while hasWorkNow(inMode: mode) {
            try count.check(self, at: now, inMode: mode)
            run(mode: mode, until: .zero)
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
        var count = RunawayCount(on: self)
        // One look a pass: work due now runs a pass; otherwise time moves to the next fire date.
        try runPasses(
            inMode: mode, atEachDeadlineThrough: instant, moveClock: clock.advance(to:),
            beforeEachPass: { (instant) throws(VirtualTimeError) in try count.check(self, at: instant, inMode: mode) })
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
    /// what kept running: the timer due first, or — when the jobs' limit was reached, or nothing is
    /// due — the tasks.
    func runawayError(inMode mode: Mode, after work: String, jobsReachedLimit: Bool) -> VirtualTimeError {
        let due = registrations(inMode: mode).filter { $0.fireDate.map { $0 <= now } ?? false }
        let tasks = "tasks that yield without waiting, or executor jobs or blocks that keep queuing more"
        let culprit = jobsReachedLimit ? tasks : due.first.map { "\($0)" } ?? tasks
        return VirtualTimeError(
            kind: .runaway, instant: now,
            message: "\(work) ran with virtual time standing still at \(now): \(culprit)",
            registrations: due)
    }
}

/// The passes and executor jobs a loop has run at its current virtual instant, against its
/// ``RunLoop/runawayLimits``.
struct RunawayCount {
    private var instant: Instant
    private var jobsBefore: Int
    private var passes = 0
    /// The loop's limits as the count began: read once, not before every pass.
    private let limits: RunLoop.RunawayLimits

    init(on loop: RunLoop) {
        instant = loop.now
        jobsBefore = loop.executorJobsRun
        limits = loop.runawayLimits
    }

    /// Counts a pass about to run on `loop` at `now`, its time; throws the runaway error for `mode`
    /// when the pass or the jobs already run at this instant reach a limit. A new instant starts a
    /// new count.
    mutating func check(_ loop: RunLoop, at now: Instant, inMode mode: RunLoop.Mode) throws(VirtualTimeError) {
        let jobsRun = loop.executorJobsRun
        if now != instant { (instant, jobsBefore, passes) = (now, jobsRun, 0) }
        let jobs = jobsRun - jobsBefore
        if jobs >= limits.jobs {
            throw loop.runawayError(
                inMode: mode, after: "\(jobs) executor jobs in \(passes) passes", jobsReachedLimit: true)
        }
        if passes >= limits.passes {
            throw loop.runawayError(inMode: mode, after: "\(passes) passes", jobsReachedLimit: false)
        }
        passes += 1
    }
}
