import RunLoopKit

extension DashboardDriver {
    /// The real timer of a row the user defined: a ``TimerSlot`` for a run loop timer, a
    /// ``DispatchRowTimer`` for a dispatch timer, a ``DisplayLinkRowTimer`` for a display link,
    /// each set up as the definition says.
    func definedTimer(_ timer: TimerDefinition, mode: RunLoop.Mode?, report: @escaping (Fire) -> Void)
        -> any RowTimer
    {
        switch timer.kind {
        case .runLoop:
            let slot = TimerSlot(interval: timer.interval, mode: mode ?? .default, loop: loop)
            slot.tolerance = timer.tolerance
            slot.repeats = timer.repeats
            let clock = loop.clock
            return SlotRowTimer(
                slot: slot,
                firstFireDelay: { timer.firstFire.delay(interval: timer.interval, wallNow: clock.now(.wall)) },
                onFire: report)
        case .displayLink:
            return DisplayLinkRowTimer(loop: loop, refreshRate: timer.refreshRate, onFire: report)
        case .dispatch, .mainQueue:
            return DispatchRowTimer(
                loop: loop, clock: timer.clock, queue: timer.kind == .mainQueue ? .main : .background,
                interval: timer.interval, firstFire: timer.firstFire,
                repeats: timer.repeats, leeway: timer.tolerance, onFire: report)
        }
    }
}
