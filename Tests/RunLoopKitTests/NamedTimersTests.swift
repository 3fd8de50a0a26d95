import Dispatch
import Synchronization
import TestSupport
import Testing

import class RunLoopKitFoundationCompat.NamedTimers

@testable import RunLoopKit

@Suite("Named timers (seed G5)")
struct NamedTimersTests {
    @Test("G5: schedule by name, list active names, cancel by name")
    func scheduleListCancel() {
        let timers = NamedTimers(queue: DispatchQueue(label: "named"))
        let fired = DispatchSemaphore(value: 0)
        timers.schedule("a", every: .milliseconds(2)) { fired.signal() }
        timers.schedule("b", every: .seconds(3_600)) {}
        #expect(timers.activeNames == ["a", "b"])
        #expect(waitBounded(fired))
        timers.cancel("a")
        #expect(timers.activeNames == ["b"])
    }

    @Test("G5: a one-shot timer cancels itself after firing")
    func oneShotCancelsItself() {
        let queue = DispatchQueue(label: "named.serial")
        let timers = NamedTimers(queue: queue)
        let fired = DispatchSemaphore(value: 0)
        let count = Mutex(0)
        timers.schedule("once", every: .milliseconds(1), repeats: false) {
            count.withLock { $0 += 1 }
            fired.signal()
        }
        #expect(waitBounded(fired))
        queue.sync {}  // the serial queue has finished the handler, self-cancel included
        #expect(timers.activeNames.isEmpty)
        #expect(count.withLock { $0 } == 1)
    }

    @Test("G5: scheduling an existing name replaces its schedule and action")
    func rescheduleReplaces() {
        let timers = NamedTimers()
        let second = DispatchSemaphore(value: 0)
        let firstRan = Mutex(false)
        timers.schedule("job", every: .seconds(3_600)) { firstRan.withLock { $0 = true } }
        timers.schedule("job", every: .milliseconds(1)) { second.signal() }
        #expect(waitBounded(second))
        #expect(timers.activeNames == ["job"])
        #expect(!firstRan.withLock { $0 })
        timers.cancel("job")
    }
}
