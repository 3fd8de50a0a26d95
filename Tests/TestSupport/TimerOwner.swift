import RunLoopKit
import Testing

/// Counts deinits of the owners that share it.
public final class DeinitCounter {
    public var count = 0

    public init() {}
}

/// An owner of a timer, as a view controller is in the seeds' lifetime examples: it counts its
/// deinits and its callouts, and invalidates its timer as it goes away.
public final class TimerOwner {
    public let deinits: DeinitCounter
    public var callouts = 0
    public var timer: Timer?
    public var dispatchTimer: DispatchTimer?

    public init(deinits: DeinitCounter = DeinitCounter()) {
        self.deinits = deinits
    }

    /// The timer's action.
    public func tick(_ timer: Timer) { callouts += 1 }

    deinit {
        deinits.count += 1
        timer?.invalidate()
    }
}

/// Runs a scene where an owner schedules a timer it holds (made by `make`, every 100 ms from
/// 100 ms), drops the owner after two fires, and runs on to 1 s: whether the owner was freed, the
/// callouts seen after the drop, the timer, and the owner's deinits.
public func ownerScene(_ make: (TimerOwner, RunLoop) -> Timer)
    -> (freed: Bool, calloutsAfterDrop: Int, timer: Timer, deinits: DeinitCounter)
{
    let (loop, _) = makeVirtualLoop()
    let deinits = DeinitCounter()
    weak var weakOwner: TimerOwner?
    let timer: Timer
    do {
        let owner = TimerOwner(deinits: deinits)
        weakOwner = owner
        timer = make(owner, loop)
        owner.timer = timer
        loop.add(timer, forMode: .default)
        loop.run(until: ms(250))
        #expect(owner.callouts == 2)
    }
    let freed = weakOwner == nil
    let before = weakOwner?.callouts ?? 2
    loop.run(until: ms(1_000))
    return (freed, (weakOwner?.callouts ?? before) - before, timer, deinits)
}
