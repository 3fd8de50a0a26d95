import Dispatch
import Glibc
import Synchronization
import TestSupport
import Testing

import class RunLoopKitFoundationCompat.NamedTimers

@testable import RunLoopKit

/// Lifetimes: what must hold however long each object lives.
@Suite("Safety: lifetimes and named timers")
struct SafetyTests {
    @Test("A display link that outlives its run loop can still be configured, and joins another loop")
    func displayLinkOutlivesItsLoop() {
        let (survivor, _) = makeVirtualLoop()
        let link = DisplayLink { _ in }
        weak var weakLoop: RunLoop?
        do {
            let (doomed, _) = makeVirtualLoop()
            weakLoop = doomed
            link.add(to: doomed, forMode: .default)
        }
        #expect(weakLoop == nil, "the link does not keep its loop alive")
        link.frameInterval = 2
        link.isPaused = true
        link.isPaused = false
        #expect(link.modes.isEmpty)
        link.add(to: survivor, forMode: .default)
        #expect(link.modes == [.default], "a link whose loop is gone belongs to no loop")
        survivor.run(until: ms(100))
        #expect(link.frameCount > 0)
    }

    @Test("Timers, observers and sources that outlive their run loop belong to no loop")
    func itemsOutliveTheirLoop() {
        let timer = Timer(fireAt: ms(10), interval: .milliseconds(10), repeats: true) { _ in }
        let observer = RunLoop.Observer(activities: .entry) { _, _ in }
        let source = RunLoop.Source {}
        do {
            let (doomed, _) = makeVirtualLoop()
            doomed.add(timer, forMode: .common)
            doomed.add(observer, forMode: .default)
            doomed.add(source, forMode: .default)
        }
        #expect(timer.modes.isEmpty)
        timer.fireDate = ms(50)
        timer.invalidate()
        observer.invalidate()
        source.invalidate()
        #expect(!timer.isValid && !observer.isValid && !source.isValid)
    }

    @Test("Every object that belongs to a loop sees it gone the moment it is freed, and does not keep it alive")
    func holdersSeeTheirLoopGone() {
        final class Ignore: TimeoutHandler {
            func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {}
        }
        let observer = RunLoop.Observer(activities: .entry) { _, _ in }
        let source = RunLoop.Source {}
        let link = DisplayLink { _ in }
        let timeouts: TimeoutSet
        do {
            let (doomed, _) = makeVirtualLoop()
            doomed.add(observer, forMode: .default)
            doomed.add(source, forMode: .default)
            link.add(to: doomed, forMode: .default)
            timeouts = TimeoutSet(on: doomed, handler: Ignore())
            timeouts.schedule(at: ms(10), tag: 1)
            #expect(observer.runLoop === doomed && source.runLoop === doomed)
            #expect(link.runLoop === doomed && timeouts.runLoop === doomed)
        }
        // Freed here: a holder that still read the loop would read freed memory.
        #expect(observer.runLoop == nil && source.runLoop == nil)
        #expect(link.runLoop == nil && timeouts.runLoop == nil)
        timeouts.schedule(at: ms(20), tag: 2)
        timeouts.invalidate()
        #expect(!timeouts.isValid)
    }

    @Test("C-D1: a display link removed from its modes and released without invalidate is freed")
    func removedDisplayLinkIsFreed() {
        let (loop, _) = makeVirtualLoop()
        weak var weakLink: DisplayLink?
        do {
            let link = DisplayLink { _ in }
            weakLink = link
            link.add(to: loop, forMode: .default)
            loop.run(until: ms(20))
            link.remove(from: loop, forMode: .default)
        }
        #expect(weakLink == nil)
    }

    @Test("C-D1: a link left in the common modes of a loop that goes away is freed with its timer")
    func linkOfAFreedLoopIsFreed() {
        weak var weakLink: DisplayLink?
        do {
            let (doomed, _) = makeVirtualLoop()
            doomed.addCommonMode(.tracking)
            let link = DisplayLink { _ in }
            weakLink = link
            link.add(to: doomed, forMode: .common)
            doomed.run(until: ms(20))
            #expect(link.modes.count == 2)
        }
        #expect(weakLink == nil)
    }

    @Test("C-D1: a link removed from its only mode and added again keeps calling back")
    func removedDisplayLinkCanReturn() {
        let (loop, _) = makeVirtualLoop()
        let link = DisplayLink { _ in }
        link.add(to: loop, forMode: .default)
        link.remove(from: loop, forMode: .default)
        #expect(link.modes.isEmpty)
        link.add(to: loop, forMode: .default)
        loop.run(until: ms(50))
        #expect(link.frameCount == 3)
    }

    @Test("G5: one-shots that fire before scheduling returns are not listed as active afterwards")
    func namedOneShotsLeaveNoEntries() {
        let queue = DispatchQueue(label: "named.oneshots")
        let timers = NamedTimers(queue: queue)
        let total = 20_000
        let fired = Atomic<Int>(0)
        let allFired = DispatchSemaphore(value: 0)
        DispatchQueue.concurrentPerform(iterations: total) { index in
            timers.schedule("t\(index)", every: .nanoseconds(1), repeats: false) {
                if fired.add(1, ordering: .relaxed).newValue == total { allFired.signal() }
            }
        }
        #expect(waitBounded(allFired, seconds: 120))
        queue.sync {}  // every handler, self-cancel included, has finished
        #expect(timers.activeNames.isEmpty)
    }
}
