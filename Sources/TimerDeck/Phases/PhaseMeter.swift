import RunLoopKit
import TimeUnits

/// Counts what a run loop does from an observer on every activity: the phase it is in, passes,
/// executor jobs run (C-X1) and the most one pass ran, why each sleep ended
/// (``RunLoop/WakeReason``), time asleep and nesting depth, per second of the loop's clock over
/// the last ``window`` seconds (runloop-reference C-R1, C-R9).
///
/// RunLoopKit counts the jobs it ran (``RunLoop/executorJobsRun``), not the timers it fired, the
/// sources it handled or the blocks it ran: an observer sees when a pass starts, not what it did.
///
/// The observer only counts: it schedules nothing, so an idle loop stays asleep.
final class PhaseMeter {
    /// Seconds of history kept.
    static let window = 10

    private let loop: RunLoop
    private let startTime: Instant
    private var observer: RunLoop.Observer?
    /// The activity reported last: the phase the loop is in.
    private(set) var phase: RunLoop.Activity?
    private var history: [PhaseSecond] = Array(repeating: PhaseSecond(), count: window)
    /// The second (since ``startTime``) the newest slot of ``history`` counts.
    private var newest = 0
    private var sleptAt: Instant?
    /// ``RunLoop/executorJobsRun`` at the last activity: the jobs run since are the pass's.
    private var jobsSeen: Int
    /// The jobs the pass under way ran so far (the innermost run's, when runs nest).
    private var jobsInPass = 0
    /// Runs after each wake-up, once its reason is counted.
    var onWake: () -> Void = {}

    /// A meter of `loop` in `modes` (an observer belongs in every mode it should see).
    init(loop: RunLoop, modes: [RunLoop.Mode]) {
        self.loop = loop
        startTime = loop.now
        jobsSeen = loop.executorJobsRun
        let observer = RunLoop.Observer(activities: .allActivities) { [unowned self] _, activity in
            record(activity)
        }
        for mode in modes { loop.add(observer, forMode: mode) }
        self.observer = observer
    }

    deinit {
        observer?.invalidate()
    }

    /// What the meter has counted up to now.
    var reading: PhaseReading {
        advance(to: second(of: loop.now))
        let ordered = (1...Self.window).map { history[(newest + $0) % Self.window] }
        let available = min(newest, Self.window - 1)
        return PhaseReading(
            phase: phase, firstSecond: newest - available, seconds: Array(ordered.dropLast().suffix(available)),
            current: ordered[Self.window - 1])
    }

    private func record(_ activity: RunLoop.Activity) {
        phase = activity
        let now = loop.now
        advance(to: second(of: now))
        let slot = newest % Self.window
        history[slot].depth = max(history[slot].depth, loop.nestingDepth)
        // C-R1: a pass runs its jobs after its timers, and the activity after them is the next
        // pass's "before timers" (or the run's exit): the jobs seen then are the pass's.
        let jobsRun = loop.executorJobsRun
        history[slot].jobs += jobsRun - jobsSeen
        jobsInPass += jobsRun - jobsSeen
        jobsSeen = jobsRun
        history[slot].mostJobsInAPass = max(history[slot].mostJobsInAPass, jobsInPass)
        switch activity {
        case .beforeTimers:
            history[slot].passes += 1
            jobsInPass = 0
        case .beforeWaiting: sleptAt = now
        case .afterWaiting:
            if let sleptAt { addAsleep(from: sleptAt, to: now) }
            sleptAt = nil
            if let reason = loop.lastWakeReason { history[slot].wakes[reason, default: 0] += 1 }
            onWake()
        default: break
        }
    }

    /// Spreads a sleep over the seconds it covers.
    private func addAsleep(from start: Instant, to end: Instant) {
        var from = start
        while from < end {
            let index = second(of: from)
            let boundary = startTime + .seconds(index + 1)
            let until = min(boundary, end)
            if index > newest - Self.window { history[index % Self.window].asleep += from.duration(to: until) }
            from = until
        }
    }

    private func second(of instant: Instant) -> Int {
        Int(startTime.duration(to: instant).nanoseconds / Nanoseconds.perSecond)
    }

    /// Moves the newest slot to `second`, clearing the seconds skipped. Nesting carries over: a
    /// run in progress is still at its depth in the seconds it slept through.
    private func advance(to second: Int) {
        guard second > newest else { return }
        let depth = loop.nestingDepth
        for index in max(newest + 1, second - Self.window + 1)...second {
            history[index % Self.window] = PhaseSecond(depth: depth)
        }
        newest = second
    }
}
