import RunLoopKit

/// A dashboard timer backed by a ``TimerSlot``: the inspector columns and the keys `p`, `m`, `f`
/// and `x` come from the slot; a conforming type adds what its fires mean.
protocol SlotTimer: DeckTimer {
    var slot: TimerSlot { get }
    /// Runs after a key changed the slot, so the views refresh.
    func slotChanged()
}

extension SlotTimer {
    public var modes: [RunLoop.Mode]? { [slot.mode] }
    public var nextFire: Instant? { slot.nextFire }
    public var lastLateness: Duration? { slot.lastLateness }
    public var missedTicks: Int { slot.missedTicks }

    public var baseState: DeckTimerState {
        if slot.wasInvalidated { return .invalid }
        guard slot.isRunning else { return .idle }
        return slot.isSuspended ? .suspended : .running
    }

    public func suspendOrResume() {
        slot.suspendOrResume()
        slotChanged()
    }

    public func moveToNextMode() -> Bool {
        slot.move(to: slot.mode.nextInCycle)
        slotChanged()
        return true
    }

    public func fireNow() {
        slot.fireNow()
    }

    public func invalidate() {
        slot.invalidate()
        slotChanged()
    }
}

extension FireRecord {
    /// The fire log's entry for a fire of the slot timer `name`.
    init(_ fire: TimerSlot.Fire, timer name: String) {
        self.init(time: fire.time, timer: name, mode: fire.mode, lateness: fire.lateness, ticks: fire.ticks)
    }
}
