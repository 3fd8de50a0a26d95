import RunLoopKit
import TimerSlots

@testable import TimerDeck

extension Fire {
    /// A run loop timer's scheduled fire at `time`, as `TimerSlot` reports it: in `mode`, `lateness`
    /// after its fire date, standing for `ticks` grid points.
    static func scheduled(
        at time: Instant, mode: RunLoop.Mode = .default, lateness: Duration = .zero, ticks: Int = 1
    ) -> Fire {
        .timer(time: time, mode: mode, lateness: lateness, ticks: ticks, isManual: false)
    }
}
