import RunLoopKit
import TimerSlots

extension DashboardDriver {
    /// The adapter of a timer the user defined, by its mechanism: a ``TimerSlot`` for a run loop
    /// timer, a ``DispatchRowTimer`` for a dispatch timer, a ``DisplayLinkRowTimer`` for a display
    /// link, a ``TaskRowTimer`` for an async task, each set up as `timer` says, and a wall-clock
    /// ``DispatchRowTimer`` due at its local time for an alarm. A new mechanism adds its line here.
    func adapter(of mechanism: TimerMechanism, for timer: TimerDefinition, report: @escaping (Fire) -> Void)
        -> any RowTimer
    {
        switch mechanism {
        case .runLoop(let mode):
            let slot = TimerSlot(interval: timer.interval, mode: mode, loop: loop)
            slot.tolerance = timer.tolerance
            slot.repeats = timer.repeats
            slot.metricsName = timer.name
            let clock = loop.timeSource
            return SlotRowTimer(
                slot: slot,
                firstFireDelay: { row in row.firstFireDelay(wallNow: clock.now(.wall)) },
                onFire: report)
        case .displayLink(let refreshRate, _):
            return DisplayLinkRowTimer(loop: loop, refreshRate: refreshRate, name: timer.name, onFire: report)
        case .dispatch(let queue):
            return DispatchRowTimer(
                loop: loop, clock: timer.clock, queue: queue, interval: timer.interval, firstFire: timer.firstFire,
                repeats: timer.repeats, leeway: timer.tolerance, onFire: report)
        case .alarm:
            return DispatchRowTimer(
                loop: loop, clock: .wall, interval: timer.interval, firstFire: timer.firstFire, repeats: false,
                onFire: report)
        case .task(let mode):
            let clock = loop.timeSource
            return TaskRowTimer(
                loop: loop, mode: mode, interval: timer.interval, tolerance: timer.tolerance, repeats: timer.repeats,
                firstFireDelay: { row in row.firstFireDelay(wallNow: clock.now(.wall)) },
                onFire: report)
        }
    }
}
