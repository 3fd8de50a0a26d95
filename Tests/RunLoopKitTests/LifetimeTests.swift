import Dispatch
import TestSupport
import Testing

import enum RunLoopKitFoundationCompat.DispatchAfter

@testable import RunLoopKit

/// The target–action remedies (L1, L2b–L2d) are RunLoopKitFoundationCompat's, tested with it.
@Suite("Lifetime-safe timers (seeds L2a, L2e, L3, runloop-reference 1.8)", .serialized)
struct LifetimeTests {
    @Test("L3: a block that captures its owner strongly recreates the cycle")
    func strongCaptureLeaks() {
        let (freed, _, timer, deinits) = ownerScene { owner, _ in
            Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { timer in owner.tick(timer) }
        }
        #expect(!freed)
        timer.invalidate()
        #expect(deinits.count == 1)
    }

    @Test("L2a: the block timer passes itself; with a weak capture the owner is freed at once")
    func blockWithWeakCapture() {
        let (freed, after, timer, _) = ownerScene { owner, _ in
            Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { [weak owner] timer in
                owner?.tick(timer)
            }
        }
        #expect(freed && after == 0)
        #expect(!timer.isValid, "the owner's deinit invalidated it")
    }

    @Test("L2e: a dispatch timer owned by an object is cancelled when the object goes")
    func ownedDispatchTimer() {
        let (loop, _) = makeVirtualLoop()
        let deinits = DeinitCounter()
        weak var weakOwner: TimerOwner?
        var events = 0
        do {
            let owner = TimerOwner(deinits: deinits)
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

/// The target–action performs (by target, C-P1 and C-P2) are RunLoopKitFoundationCompat's, tested with it.
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

    @Test("C-P2/G6: a request can be cancelled until it runs")
    func cancelRequest() {
        let (loop, _) = makeVirtualLoop()
        var ran: [String] = []
        let request = loop.perform(after: .milliseconds(10)) { ran.append("request") }
        loop.perform(after: .milliseconds(20)) { ran.append("other") }
        request.cancel()
        #expect(!request.isPending)
        loop.run(until: ms(100))
        #expect(ran == ["other"])
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

    @Test("C-G9: dispatch-after runs the work and offers no cancel")
    func dispatchAfter() {
        let done = DispatchSemaphore(value: 0)
        DispatchAfter.schedule(after: .milliseconds(1)) { done.signal() }
        #expect(waitBounded(done))
    }
}
