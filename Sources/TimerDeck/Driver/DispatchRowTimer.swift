import RunLoopKit

/// A row driven by a repeating dispatch timer whose handler runs on the loop, first event at once
/// (G2), as the seed's code does; no run loop mode pauses it (G1).
final class DispatchRowTimer: RowTimer {
    private unowned let loop: RunLoop
    private let clock: ClockKind
    private let interval: Duration
    private let onFire: (Fire) -> Void
    private var timer: DispatchTimer?
    /// When the running timer started, on its clock: the grid its events fall on.
    private var started: Instant?

    init(loop: RunLoop, clock: ClockKind, interval: Duration, onFire: @escaping (Fire) -> Void) {
        self.loop = loop
        self.clock = clock
        self.interval = interval
        self.onFire = onFire
    }

    func start(for row: RowState) {
        stop()
        started = loop.clock.now(clock)
        let timer = DispatchTimer(clock: clock, runLoop: loop) { [weak self] event in
            self?.deliver(ticks: event.ticks, isManual: false)
        }
        timer.schedule(deadline: .now, repeating: interval)
        timer.resume()
        self.timer = timer
    }

    func stop() {
        timer?.cancel()
        timer = nil
        started = nil
    }

    func suspend() {
        if timer?.isSuspended == false { timer?.suspend() }
    }

    func resume() {
        if timer?.isSuspended == true { timer?.resume() }
    }

    /// A dispatch timer has no mode (G1); the state never asks.
    func move(to mode: RunLoop.Mode) {}

    /// Reports an event now, outside the schedule: the row refreshes its label from its deadline.
    func fireNow() {
        guard timer != nil else { return }
        deliver(ticks: 1, isManual: true)
    }

    func invalidate() { stop() }

    var nextFire: Instant? {
        guard let started, let timer, !timer.isSuspended else { return nil }
        let step = max(interval.nanoseconds, 1)
        let elapsed = loop.clock.now(clock).nanoseconds - started.nanoseconds
        return loop.now + .nanoseconds(step - elapsed % step)
    }

    var framesPerSecond: Double? { nil }

    private func deliver(ticks: Int, isManual: Bool) {
        onFire(
            .dispatch(
                time: loop.now, mode: loop.currentMode, clockNow: loop.clock.now(clock), ticks: ticks,
                isManual: isManual))
    }
}
