import RunLoopKit

/// The points a repeating dispatch timer's events fall on, by libdispatch's rule: the first is due
/// at ``origin``, each next one an ``interval`` later on the timer's own clock. An event that comes
/// late stands for every point that passed (its data, the ticks), and the next is due on the grid
/// again: lateness never accumulates (C-G4). The one home of that arithmetic: a row's lateness, an
/// SMS button's count and the inspector's next fire all come from here.
struct DispatchGrid: Equatable, Sendable {
    /// When the first event was due, on the timer's clock.
    let origin: Instant
    /// The repeat interval.
    let interval: Duration

    private var step: Int64 { max(interval.nanoseconds, 1) }

    /// The point an event at `clockNow` stands for, counted from 0 at ``origin``: the last one at
    /// or before it (0 before the first).
    func index(at clockNow: Instant) -> Int64 {
        max(clockNow.nanoseconds - origin.nanoseconds, 0) / step
    }

    /// How long after its point an event at `clockNow` came.
    func lateness(at clockNow: Instant) -> Duration {
        .nanoseconds(max(clockNow.nanoseconds - origin.nanoseconds, 0) % step)
    }

    /// The first point after `clockNow` (the origin itself before it is due).
    func next(after clockNow: Instant) -> Instant {
        guard clockNow >= origin else { return origin }
        return origin + .nanoseconds((index(at: clockNow) + 1) * step)
    }
}
