import RunLoopKit

/// A repeating run loop timer as the dashboard drives it: started, stopped, suspended (its fire
/// date parked in the distant future, the usual iOS idiom), moved between modes, fired, invalidated,
/// and every fire recorded with its lateness and skipped ticks.
final class LoopTimerSlot {
    let name: String
    let interval: Duration
    private(set) var mode: RunLoop.Mode
    private unowned let loop: RunLoop
    private let record: (FireRecord) -> Void
    /// Runs after each fire has been recorded.
    var onFire: () -> Void = {}
    private(set) var timer: Timer?
    private var remainingWhileSuspended: Duration?
    private var firingManually = false
    private(set) var lastLateness: Duration?
    private(set) var missedTicks = 0
    private(set) var wasInvalidated = false

    init(name: String, interval: Duration, mode: RunLoop.Mode, loop: RunLoop,
         record: @escaping (FireRecord) -> Void) {
        self.name = name
        self.interval = interval
        self.mode = mode
        self.loop = loop
        self.record = record
    }

    var isRunning: Bool { timer?.isValid ?? false }
    var isSuspended: Bool { remainingWhileSuspended != nil }
    var nextFire: Instant? { isSuspended ? nil : timer.flatMap { $0.isValid ? $0.fireDate : nil } }

    var baseState: DeckTimerState {
        if wasInvalidated { return .invalid }
        guard isRunning else { return .idle }
        return isSuspended ? .suspended : .running
    }

    /// Schedules a new repeating timer, first fire one interval from now (seed M1, Darwin semantics).
    func start() {
        stop()
        wasInvalidated = false
        let timer = Timer(fireAt: loop.now + interval, interval: interval, repeats: true) { [weak self] timer in
            self?.fired(timer)
        }
        loop.add(timer, forMode: mode)
        self.timer = timer
    }

    /// Invalidates the timer and forgets it.
    func stop() {
        timer?.invalidate()
        timer = nil
        remainingWhileSuspended = nil
    }

    /// `x`: invalidates the timer and shows it as invalid.
    func invalidate() {
        guard timer != nil else { return }
        stop()
        wasInvalidated = true
    }

    func suspendOrResume() {
        guard let timer, timer.isValid else { return }
        if let remaining = remainingWhileSuspended {
            remainingWhileSuspended = nil
            timer.fireDate = loop.now + remaining
        } else {
            remainingWhileSuspended = max(loop.now.duration(to: timer.fireDate), .zero)
            timer.fireDate = .distantFuture
        }
    }

    func moveToNextMode() {
        let old = mode
        mode = mode.nextInCycle
        guard let timer else { return }
        loop.remove(timer, forMode: old)
        loop.add(timer, forMode: mode)
    }

    /// `f`: runs the action now without disturbing the schedule (seed T2).
    func fireNow() {
        guard let timer, timer.isValid else { return }
        firingManually = true
        timer.fire()
        firingManually = false
    }

    private func fired(_ timer: Timer) {
        var lateness = Duration.zero
        var ticks = 1
        if !firingManually {
            lateness = timer.fireDate.duration(to: loop.now)
            // C-T6: the grid points that passed while the timer could not fire were skipped.
            ticks = 1 + Int(lateness.nanoseconds / max(interval.nanoseconds, 1))
            lastLateness = lateness
            missedTicks += ticks - 1
        }
        record(FireRecord(time: loop.now, timer: name, mode: loop.currentMode, lateness: lateness, ticks: ticks))
        onFire()
    }
}
