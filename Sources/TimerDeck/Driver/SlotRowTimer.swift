import RunLoopKit
import TimerSlots

/// A row driven by a run loop timer (``TimerSlot``): an SMS button or a timer of the user's.
final class SlotRowTimer: MovableRowTimer, FirableRowTimer {
    private let slot: TimerSlot
    /// The time from a start of the row to the first fire, asked at each start (a time of day
    /// moves on).
    private let firstFireDelay: (RowState) -> Duration?

    /// Drives `slot` and reports its fires through `onFire`. Each start sets the slot's first-fire
    /// delay from `firstFireDelay` (`nil`: one interval).
    init(
        slot: TimerSlot, firstFireDelay: @escaping (RowState) -> Duration? = { _ in nil },
        onFire: @escaping (Fire) -> Void
    ) {
        self.slot = slot
        self.firstFireDelay = firstFireDelay
        slot.onFire = { fire in onFire(Fire(fire)) }
    }

    func start(for row: RowState) {
        if let mode = row.mode, mode != slot.mode { slot.move(to: mode) }
        slot.firstFireDelay = firstFireDelay(row)
        slot.start()
    }

    func stop() { slot.stop() }

    func suspend() {
        if !slot.isSuspended { slot.suspendOrResume() }
    }

    func resume() {
        if slot.isSuspended { slot.suspendOrResume() }
    }

    func move(to mode: RunLoop.Mode) { slot.move(to: mode) }

    func fireNow() { slot.fireNow() }

    func invalidate() { slot.invalidate() }

    var nextFire: Instant? { slot.nextFire }
}

extension Fire {
    /// The report of a slot's fire.
    init(_ fire: TimerSlot.Fire) {
        self = .timer(
            time: fire.time, mode: fire.mode, lateness: fire.lateness, ticks: fire.ticks, isManual: fire.isManual)
    }
}
