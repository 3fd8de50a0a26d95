import RunLoopKit

/// A row driven by a repeating run loop timer (``TimerSlot``): an SMS button, or an upload job whose
/// slot the pipeline owns (its fires then reach the driver through the pipeline).
final class SlotRowTimer: RowTimer {
    private let slot: TimerSlot

    /// Drives `slot`; with `onFire`, the slot's fires are reported through it.
    init(slot: TimerSlot, onFire: ((Fire) -> Void)?) {
        self.slot = slot
        if let onFire {
            slot.onFire = { fire in onFire(Fire(fire)) }
        }
    }

    func start(for row: RowState) {
        if let mode = row.mode, mode != slot.mode { slot.move(to: mode) }
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

    var framesPerSecond: Double? { nil }
}

extension Fire {
    /// The report of a slot's fire.
    init(_ fire: TimerSlot.Fire) {
        self = .timer(
            time: fire.time, mode: fire.mode, lateness: fire.lateness, ticks: fire.ticks, isManual: fire.isManual)
    }
}
