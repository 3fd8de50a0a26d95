import RunLoopKit

/// What a suspended schedule had left: taken from its deadline when it is suspended, and given
/// back as a new deadline from the time it resumes, so a timer held for a minute fires a minute
/// late and never at once. The one home of that rule, for ``TimerSlot`` and the dashboard's task rows.
package struct TimeLeft: Sendable {
    private var left: Duration?

    /// Nothing held.
    package init() {}

    /// Whether a schedule is held.
    package var isHeld: Bool { left != nil }

    /// Holds a schedule due at `deadline`, at `now`: what is left of it (none when it is past).
    package mutating func hold(until deadline: Instant, now: Instant) {
        left = max(now.duration(to: deadline), .zero)
    }

    /// Lets the held schedule go on at `now`: its new deadline, or `nil` when none is held.
    package mutating func resume(now: Instant) -> Instant? {
        defer { left = nil }
        return left.map { now + $0 }
    }

    /// Forgets the held schedule (it was stopped or started again).
    package mutating func forget() {
        left = nil
    }
}
