import Dispatch
import RunLoopKit

/// A row driven by a dispatch timer whose events reach the loop in its common modes (G1, C-G10): on a
/// background queue, or on the main queue that the main run loop drains (C-M12).
/// It follows its definition: first event (at once as the seed's SMS code does, G2, one interval
/// later, or at a time of day), repeats, leeway.
final class DispatchRowTimer: FirableRowTimer {
    private unowned let loop: RunLoop
    private let clock: ClockKind
    private let queue: DispatchQueueChoice
    private let interval: Duration
    private let firstFire: TimerDefinition.FirstFire
    private let repeats: Bool
    private let leeway: Duration
    private let onFire: (Fire) -> Void
    private var timer: DispatchTimer?
    /// When the running timer's first event is due, on its clock: the grid its events fall on.
    private var firstDue: Instant?
    /// Whether the running timer is held by ``suspend()``: libdispatch counts suspensions, the row
    /// holds at most one.
    private var isSuspended = false

    init(
        loop: RunLoop, clock: ClockKind, queue: DispatchQueueChoice = .background, interval: Duration,
        firstFire: TimerDefinition.FirstFire = .now, repeats: Bool = true,
        leeway: Duration = .zero, onFire: @escaping (Fire) -> Void
    ) {
        self.loop = loop
        self.clock = clock
        self.queue = queue
        self.interval = interval
        self.firstFire = firstFire
        self.repeats = repeats
        self.leeway = leeway
        self.onFire = onFire
    }

    func start(for row: RowState) {
        stop()
        // A timer put back is due at its kept instant (an alarm whatever the time zone now).
        let delay = row.firstFireDelay(wallNow: loop.timeSource.now(.wall))
        let firstDue = loop.timeSource.now(clock) + delay
        self.firstDue = firstDue
        let timer = makeDispatchTimer { [weak self] event in self?.deliver(ticks: event.ticks, isManual: false) }
        // C-G2: `.now` is the first event at once; a one-shot timer has no repeat interval. A time of
        // day or a date on the wall clock is a wall deadline, kept across a sleep or a clock change.
        let deadline: DispatchTimer.Deadline =
            switch firstFire {
            case _ where row.keptDeadline != nil: clock == .wall ? .at(firstDue) : .after(delay)
            case .now: .now
            case .at where clock == .wall, .on where clock == .wall: .at(firstDue)
            default: .after(delay)
            }
        timer.schedule(deadline: deadline, repeating: repeats ? interval : nil, leeway: leeway)
        timer.resume()
        self.timer = timer
        isSuspended = false
    }

    /// The dispatch timer for ``queue``: libdispatch's main queue on the main run loop, which runs
    /// `handler` on the loop's thread when it drains the queue; otherwise a background queue with
    /// the loop's own delivery (see ``DispatchQueueChoice/main``).
    private func makeDispatchTimer(_ handler: @escaping (DispatchTimer.Event) -> Void) -> DispatchTimer {
        guard queue == .main, loop.drainsMainQueue else {
            return DispatchTimer(clock: clock, runLoop: loop, handler: handler)
        }
        let onLoop = LoopBound(handler, on: loop)
        return DispatchTimer(clock: clock, queue: .main) { event in onLoop.value(event) }
    }

    func stop() {
        timer?.cancel()
        timer = nil
        firstDue = nil
        isSuspended = false
    }

    func suspend() {
        guard let timer, !isSuspended else { return }
        timer.suspend()
        isSuspended = true
    }

    func resume() {
        guard let timer, isSuspended else { return }
        timer.resume()
        isSuspended = false
    }

    /// Reports an event now, outside the schedule: the row refreshes its label from its grid.
    func fireNow() {
        guard timer != nil else { return }
        deliver(ticks: 1, isManual: true)
    }

    func invalidate() { stop() }

    /// The next point of its grid, on the loop's uptime clock.
    var nextFire: Instant? {
        guard let firstDue, timer != nil, !isSuspended else { return nil }
        let clockNow = loop.timeSource.now(clock)
        return loop.now
            + clockNow.duration(to: DispatchGrid(origin: firstDue, interval: interval).next(after: clockNow))
    }

    private func deliver(ticks: Int, isManual: Bool) {
        guard let firstDue else { return }
        onFire(
            .dispatch(
                time: loop.now, mode: loop.currentMode, clockNow: loop.timeSource.now(clock), firstDue: firstDue,
                ticks: ticks, isManual: isManual))
    }
}
