import Dispatch
import Testing

@testable import RunLoopKit

/// Counts deinits of the owners that share it.
private final class DeinitCounter {
    var count = 0
}

/// An owner that counts its deinits and its callouts.
private final class Owner {
    let deinits: DeinitCounter
    var callouts = 0
    var timer: Timer?
    var dispatchTimer: DispatchTimer?

    init(deinits: DeinitCounter = DeinitCounter()) {
        self.deinits = deinits
    }

    func tick(_ timer: Timer) { callouts += 1 }

    deinit {
        deinits.count += 1
        timer?.invalidate()
    }
}

@Suite("Lifetime-safe timers (seeds L1–L3, decisions.md 11, runloop-reference 1.8)", .serialized)
struct LifetimeTests {
    /// Runs a scene where an owner schedules a timer it holds, drops the owner after two fires, and
    /// runs on; returns (callouts before drop, whether the owner was freed, callouts seen after).
    private func scene(_ make: (Owner, RunLoop) -> Timer)
        -> (freed: Bool, calloutsAfterDrop: Int, timer: Timer, deinits: DeinitCounter)
    {
        let (loop, _) = makeVirtualLoop()
        let deinits = DeinitCounter()
        weak var weakOwner: Owner?
        let timer: Timer
        do {
            let owner = Owner(deinits: deinits)
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

    @Test("L1: a strong-target timer keeps its owner alive and firing until invalidated")
    func strongTargetLeaks() {
        let (freed, after, timer, deinits) = scene { owner, _ in
            Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true, target: owner, action: Owner.tick)
        }
        #expect(!freed, "the run loop holds the timer, the timer its target: deinit never runs")
        #expect(after == 8, "it keeps firing after its screen is gone")
        timer.invalidate()
        #expect(deinits.count == 1, "only invalidate frees it")
    }

    @Test("L3: a block that captures its owner strongly recreates the cycle")
    func strongCaptureLeaks() {
        let (freed, _, timer, deinits) = scene { owner, _ in
            Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { timer in owner.tick(timer) }
        }
        #expect(!freed)
        timer.invalidate()
        #expect(deinits.count == 1)
    }

    @Test("L2a: the block timer passes itself; with a weak capture the owner is freed at once")
    func blockWithWeakCapture() {
        let (freed, after, timer, _) = scene { owner, _ in
            Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { [weak owner] timer in
                owner?.tick(timer)
            }
        }
        #expect(freed && after == 0)
        #expect(!timer.isValid, "the owner's deinit invalidated it")
    }

    @Test("L2b: the block in the user info with a long-lived target frees the owner")
    func blockInUserInfo() {
        let (freed, after, timer, _) = scene { owner, _ in
            Timer.withBlockInUserInfo(fireAt: ms(100), interval: .milliseconds(100), repeats: true) {
                [weak owner] timer in
                owner?.tick(timer)
            }
        }
        #expect(freed && after == 0 && !timer.isValid)
    }

    @Test("L2c/decision 11: a weak-target timer frees the owner and invalidates itself at its next fire")
    func weakTargetInvalidatesItself() {
        let (loop, _) = makeVirtualLoop()
        weak var weakOwner: Owner?
        var timer: Timer?
        do {
            let owner = Owner()
            weakOwner = owner
            timer = Timer.weakTarget(
                owner, fireAt: ms(100), interval: .milliseconds(100), repeats: true, action: Owner.tick)
            loop.add(timer!, forMode: .default)
            loop.run(until: ms(250))
            #expect(owner.callouts == 2)
        }
        #expect(weakOwner == nil, "freed as soon as it is dropped")
        #expect(timer!.isValid, "not yet: the timer finds out at its next fire")
        loop.run(until: ms(310))
        #expect(!timer!.isValid, "invalidated at the first fire after the target was gone, calling nothing")
    }

    @Test("L2d: a weak proxy as the target lets the owner's deinit run and invalidate the timer")
    func weakProxy() {
        let (freed, after, timer, _) = scene { owner, _ in
            Timer(
                fireAt: ms(100), interval: .milliseconds(100), repeats: true,
                target: WeakProxy(owner), action: WeakProxy.forward(Owner.tick))
        }
        #expect(freed && after == 0 && !timer.isValid)
    }

    @Test("L2e: a dispatch timer owned by an object is cancelled when the object goes")
    func ownedDispatchTimer() {
        let (loop, _) = makeVirtualLoop()
        let deinits = DeinitCounter()
        weak var weakOwner: Owner?
        var events = 0
        do {
            let owner = Owner(deinits: deinits)
            weakOwner = owner
            let timer = DispatchTimer(runLoop: loop) { [weak owner] _ in
                if owner != nil { events += 1 }
            }
            timer.schedule(deadline: .after(.milliseconds(100)), repeating: .milliseconds(100))
            timer.resume()
            owner.dispatchTimer = timer
            loop.add(RunLoop.Source {}, forMode: .default)
            loop.run(until: ms(250))
        }
        #expect(weakOwner == nil && deinits.count == 1)
        loop.run(until: ms(1_000))
        #expect(events == 2, "no event after the owner is gone")
    }
}

@Suite("Delayed performs (seed G6, runloop-reference 1.7)")
struct DelayedPerformTests {
    @Test("G6/C-P1: a default-mode perform is paused while tracking and runs when the mode returns")
    func performIsModeBound() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        var ranAt: [Int64] = []
        loop.perform(after: .milliseconds(100)) { ranAt.append(loop.now.milliseconds) }
        loop.perform(after: .milliseconds(100), inModes: [.common]) { ranAt.append(-loop.now.milliseconds) }
        let gesture = Timer(fireAt: ms(50), interval: .zero, repeats: false) { _ in
            loop.run(mode: .tracking, until: ms(300))
        }
        loop.add(gesture, forMode: .default)
        loop.add(RunLoop.Source {}, forMode: .common)
        loop.run(until: ms(400))
        #expect(ranAt == [-100, 300], "the common one ran during tracking, the default one on return")
    }

    @Test("C-P2/G6: a request can be cancelled; cancel by target cancels only that target's")
    func cancelByRequestAndTarget() {
        let (loop, _) = makeVirtualLoop()
        let first = Owner()
        let second = Owner()
        var ran: [String] = []
        let request = loop.perform(after: .milliseconds(10), target: first) { ran.append("request") }
        loop.perform(after: .milliseconds(20), target: first) { ran.append("first") }
        loop.perform(after: .milliseconds(30), target: second) { ran.append("second") }
        request.cancel()
        #expect(!request.isPending)
        loop.cancelPerformRequests(target: first)
        loop.run(until: ms(100))
        #expect(ran == ["second"])
    }

    @Test("C-P1: a delay of zero is never synchronous; empty modes queue nothing")
    func zeroDelayAndEmptyModes() {
        let (loop, _) = makeVirtualLoop()
        var ran = false
        loop.perform(after: .zero) { ran = true }
        #expect(!ran)
        let nothing = loop.perform(after: .zero, inModes: []) { Issue.record("must not run") }
        #expect(!nothing.isPending)
        loop.run(until: ms(1))
        #expect(ran)
    }

    @Test("C-P1: the target is retained until the request has run")
    func targetRetainedUntilRun() {
        let (loop, _) = makeVirtualLoop()
        weak var weakTarget: Owner?
        do {
            let target = Owner()
            weakTarget = target
            loop.perform(after: .milliseconds(10), target: target) {}
        }
        #expect(weakTarget != nil)
        loop.run(until: ms(20))
        #expect(weakTarget == nil)
    }

    @Test("C-G9: dispatch-after runs the work and offers no cancel")
    func dispatchAfter() {
        let done = DispatchSemaphore(value: 0)
        DispatchAfter.schedule(after: .milliseconds(1)) { done.signal() }
        #expect(waitBounded(done))
    }
}
