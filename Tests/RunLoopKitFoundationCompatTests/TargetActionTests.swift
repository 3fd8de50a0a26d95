import Dispatch
import RunLoopKit
import RunLoopKitFoundationCompat
import TestSupport
import Testing

// This file exercises the target–action idioms on RunLoopKit's own timers and loops: these two
// lines pick RunLoopKit's names over the Foundation-named ones of the compat module.
private typealias RunLoop = RunLoopKit.RunLoop
private typealias Timer = RunLoopKit.Timer

@Suite("Target–action timers (seeds L1, L2b–L2d, decisions.md 11, runloop-reference 1.8)", .serialized)
struct TargetActionTimerTests {
    @Test("L1: a strong-target timer keeps its owner alive and firing until invalidated")
    func strongTargetLeaks() {
        let (freed, after, timer, deinits) = ownerScene { owner, _ in
            Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true, target: owner, action: TimerOwner.tick)
        }
        #expect(!freed, "the run loop holds the timer, the timer its target: deinit never runs")
        #expect(after == 8, "it keeps firing after its screen is gone")
        timer.invalidate()
        #expect(deinits.count == 1, "only invalidate frees it")
    }

    @Test("L2b: the block in the user info with a long-lived target frees the owner")
    func blockInUserInfo() {
        let (freed, after, timer, _) = ownerScene { owner, _ in
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
        weak var weakOwner: TimerOwner?
        var timer: Timer?
        do {
            let owner = TimerOwner()
            weakOwner = owner
            timer = Timer.weakTarget(
                owner, fireAt: ms(100), interval: .milliseconds(100), repeats: true, action: TimerOwner.tick)
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
        let (freed, after, timer, _) = ownerScene { owner, _ in
            Timer(
                fireAt: ms(100), interval: .milliseconds(100), repeats: true,
                target: WeakProxy(owner), action: WeakProxy.forward(TimerOwner.tick))
        }
        #expect(freed && after == 0 && !timer.isValid)
    }
}

@Suite("Selector-style delayed performs (C-P1, C-P2)")
struct SelectorPerformTests {
    private final class Payload: Hashable {
        static func == (lhs: Payload, rhs: Payload) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    private final class Target {}

    @Test("C-P2/G6: a request can be cancelled; cancel by target cancels only that target's")
    func cancelByRequestAndTarget() {
        let (loop, _) = makeVirtualLoop()
        let first = Target()
        let second = Target()
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

    @Test("C-P1: the target is retained until the request has run")
    func targetRetainedUntilRun() {
        let (loop, _) = makeVirtualLoop()
        weak var weakTarget: Target?
        do {
            let target = Target()
            weakTarget = target
            loop.perform(after: .milliseconds(10), target: target) {}
        }
        #expect(weakTarget != nil)
        loop.run(until: ms(20))
        #expect(weakTarget == nil)
    }

    @Test(
        "C-P1: a delayed perform keeps its target and argument alive until its action has run, and lets go right after")
    func performKeepsTargetAndArgumentUntilRun() {
        let (loop, _) = makeVirtualLoop()
        weak var weakTarget: Target?
        weak var weakPayload: Payload?
        var aliveDuringAction = false
        do {
            let target = Target()
            let payload = Payload()
            weakTarget = target
            weakPayload = payload
            loop.perform(after: .milliseconds(10), target: target, action: "refresh", argument: payload) { _, _ in }
            loop.perform(after: .milliseconds(20), target: target) {
                aliveDuringAction = weakTarget != nil
            }
        }
        #expect(weakTarget != nil && weakPayload != nil)
        loop.run(until: ms(15))
        #expect(weakPayload == nil, "released right after its action")
        loop.run(until: ms(30))
        #expect(aliveDuringAction, "the plain perform held its target while its block ran")
        #expect(weakTarget == nil)
    }

    @Test("C-P2: cancel by target, action and argument cancels only the matching requests")
    func cancelByTargetActionAndArgument() {
        let (loop, _) = makeVirtualLoop()
        let target = Target()
        let other = Target()
        var ran: [String] = []
        loop.perform(after: .milliseconds(10), target: target, action: "search", argument: "a") { _, arg in
            ran.append("search \(arg!)")
        }
        loop.perform(after: .milliseconds(10), target: target, action: "search", argument: "b") { _, arg in
            ran.append("search \(arg!)")
        }
        loop.perform(after: .milliseconds(10), target: target, action: "save") { _, _ in ran.append("save") }
        loop.perform(after: .milliseconds(10), target: other, action: "search", argument: "a") { _, _ in
            ran.append("other")
        }
        loop.cancelPerformRequests(target: target, action: "search", argument: "a")
        loop.cancelPerformRequests(target: target, action: "save", argument: "x")
        loop.run(until: ms(20))
        #expect(ran.sorted() == ["other", "save", "search b"])
    }
}
