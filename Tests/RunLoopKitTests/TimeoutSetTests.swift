import TestSupport
import Testing

@testable import RunLoopKit

/// Records the tags of fired timeouts with the virtual time (ms) they fired at, and can run a
/// reaction inside the callout.
final class TimeoutLog: TimeoutHandler {
    let loop: RunLoop
    var fired: [(tag: UInt64, at: Int64)] = []
    var reaction: ((TimeoutSet.Timeout, UInt64) -> Void)?

    init(_ loop: RunLoop) {
        self.loop = loop
    }

    func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {
        fired.append((tag, loop.now.milliseconds))
        reaction?(timeout, tag)
    }

    var tags: [UInt64] { fired.map(\.tag) }
    var times: [Int64] { fired.map(\.at) }
}

@Suite("TimeoutSet: timeouts by value, one handler")
struct TimeoutSetTests {
    @Test("C-T3: timeouts fire at their deadlines, in (deadline, insertion) order, with their tags")
    func firesInDeadlineOrder() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        set.schedule(at: ms(30), tag: 3)
        set.schedule(at: ms(10), tag: 1)
        set.schedule(at: ms(20), tag: 2)
        set.schedule(at: ms(10), tag: 4)
        #expect(set.count == 4)
        #expect(loop.nextFireDate(forMode: .default) == ms(10))
        #expect(loop.run(until: ms(100)) == .finished)
        #expect(log.tags == [1, 4, 2, 3])
        #expect(log.times == [10, 10, 20, 30])
        #expect(set.count == 0)
    }

    @Test("C-T3: timeouts and timers of one mode fire together by (fire time, insertion order)")
    func interleavesWithTimers() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        var order: [String] = []
        log.reaction = { _, tag in order.append("timeout \(tag)") }
        loop.add(
            Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in order.append("timer A") }, forMode: .default)
        set.schedule(at: ms(10), tag: 1)
        loop.add(
            Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in order.append("timer B") }, forMode: .default)
        set.schedule(at: ms(5), tag: 2)
        loop.run(until: ms(100))
        #expect(order == ["timeout 2", "timer A", "timeout 1", "timer B"])
    }

    @Test("A stale handle is a no-op: cancelling a fired timeout, or one whose slot was reused, touches nothing")
    func staleHandleIsNoOp() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        let first = set.schedule(at: ms(10), tag: 1)
        loop.run(until: ms(20))
        #expect(log.tags == [1])
        #expect(!set.cancel(first))
        #expect(!set.reschedule(first, to: ms(50)))
        // The freed slot is reused with a new generation: the old handle does not reach it.
        let second = set.schedule(at: ms(30), tag: 2)
        #expect(second.slot == first.slot && second != first)
        #expect(!set.cancel(first))
        #expect(set.isScheduled(second) && !set.isScheduled(first))
        let cancelled = set.schedule(at: ms(35), tag: 3)
        #expect(set.cancel(cancelled))
        #expect(!set.cancel(cancelled))
        loop.run(until: ms(100))
        #expect(log.tags == [1, 2])
    }

    @Test("A timeout's record is 32 bytes and a heap entry 24: 56 bytes a timeout, 560 MB for 10M")
    func recordSize() {
        #expect(MemoryLayout<TimerRecords.Record>.stride == 32)
        #expect(MemoryLayout<TimerRecords.Entry>.stride == 24)
    }

    @Test("A slot's entry stamp wraps without waking its tombstones: the sweep before the wrap removes them")
    func stampWrapSweepsTombstones() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        for tag in UInt64(10)..<14 { set.schedule(at: ms(500), tag: tag) }
        // A tombstone with the slot's stamp 0, deep enough that no sweep by count removes it.
        let cancelled = set.schedule(at: ms(50), tag: 1)
        #expect(set.cancel(cancelled) && set.tombstoneCount == 1)
        // The slot's stamp about to wrap back to the tombstone's: firing the next timeout in it wraps it.
        set.records.slab[Int(cancelled.slot)].stamp = UInt32.max
        let wrapping = set.schedule(at: ms(10), tag: 2)
        #expect(wrapping.slot == cancelled.slot)
        loop.run(until: ms(20))
        #expect(set.records.slab[Int(cancelled.slot)].stamp == 0)
        let reused = set.schedule(at: ms(100), tag: 3)
        #expect(reused.slot == cancelled.slot)
        #expect(set.isConsistent && set.tombstoneCount == 0)
        loop.run(until: ms(1_000))
        #expect(log.fired.map(\.tag) == [2, 3, 10, 11, 12, 13] && log.times == [10, 100, 500, 500, 500, 500])
    }

    @Test("C-T7: a timeout moved later, then earlier but after its first deadline, fires at its last time")
    func rescheduleLaterThenBack() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        let idle = set.schedule(at: ms(10), tag: 1)
        let other = set.schedule(at: ms(25), tag: 2)
        #expect(set.reschedule(idle, to: ms(40)))
        #expect(set.reschedule(idle, to: ms(20)))
        #expect(set.deadline(of: idle) == ms(20))
        #expect(set.isConsistent)
        loop.run(until: ms(100))
        #expect(log.fired.map(\.tag) == [1, 2] && log.times == [20, 25])
        #expect(!set.isScheduled(other))
    }

    @Test("C-T7: a timeout moved later fires at its new time, and the loop does not wake at the old one")
    func rescheduleLaterInPlace() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        var wakes: [Int64] = []
        let observer = RunLoop.Observer(activities: .afterWaiting) { _, _ in
            wakes.append(loop.now.milliseconds)
        }
        loop.add(observer, forMode: .default)
        let idle = set.schedule(at: ms(10), tag: 1)
        let entries = set.entryCount
        #expect(set.reschedule(idle, to: ms(40)))
        #expect(set.entryCount == entries && set.tombstoneCount == 0)
        #expect(set.deadline(of: idle) == ms(40))
        #expect(loop.nextFireDate(forMode: .default) == ms(40))
        loop.run(until: ms(100))
        #expect(log.times == [40])
        #expect(wakes == [40])
    }

    @Test("C-T7: a timeout moved earlier fires at its new time, after the timeouts already due then")
    func rescheduleEarlier() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        set.schedule(at: ms(20), tag: 1)
        let moved = set.schedule(at: ms(50), tag: 2)
        set.reschedule(moved, to: ms(20))
        loop.run(until: ms(100))
        #expect(log.tags == [1, 2])
        #expect(log.times == [20, 20])
    }

    @Test("C-M4: a set fires only while the loop runs in its mode; a common set joins modes made common later (C-M5)")
    func obeysModes() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let defaultSet = TimeoutSet(on: loop, handler: log)
        let commonSet = TimeoutSet(on: loop, forMode: .common, handler: log)
        defaultSet.schedule(at: ms(10), tag: 1)
        commonSet.schedule(at: ms(10), tag: 2)
        loop.addCommonMode(.tracking)
        // Tracking: only the common set's timeout fires; the mode is then empty and the run ends.
        #expect(loop.run(mode: .tracking, until: ms(50)) == .finished)
        #expect(log.tags == [2])
        #expect(defaultSet.count == 1)
        loop.run(mode: .default, until: ms(60))
        #expect(log.tags == [2, 1])
        #expect(log.times == [10, 10])
    }

    @Test("C-T9: one wake-up serves every timeout whose tolerance window it falls in")
    func toleranceCoalesces() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, tolerance: .milliseconds(10), handler: log)
        set.schedule(at: ms(100), tag: 1)
        set.schedule(at: ms(105), tag: 2)
        set.schedule(at: ms(120), tag: 3)
        loop.run(until: ms(200))
        #expect(log.times == [105, 105, 120])
        set.tolerance = .milliseconds(-5)
        #expect(set.tolerance == .zero)
    }

    @Test("C-T4: a timeout scheduled in a callout, already due, fires at the next pass, not in this one")
    func scheduledDuringPassWaits() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        log.reaction = { _, tag in
            if tag == 1 { set.schedule(at: ms(0), tag: 2) }
        }
        set.schedule(at: ms(0), tag: 1)
        loop.run(until: ms(0))
        #expect(log.tags == [1])
        #expect(set.count == 1 && set.isConsistent)
        loop.run(until: ms(0))
        #expect(log.tags == [1, 2])
    }

    @Test("C-M11: a run nested in a callout fires the other due timeouts once; the outer pass fires none twice")
    func nestedRunFiresEachOnce() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        log.reaction = { _, tag in
            if tag == 1 {
                set.schedule(at: ms(10), tag: 4)
                loop.run(mode: .default, until: ms(10))
            }
        }
        set.schedule(at: ms(10), tag: 1)
        set.schedule(at: ms(10), tag: 2)
        set.schedule(at: ms(10), tag: 3)
        loop.run(until: ms(100))
        #expect(log.tags == [1, 2, 3, 4])
        #expect(set.count == 0 && set.isConsistent)
    }

    @Test("A fired timeout's slot serves a timeout scheduled in its own callout")
    func callbackReusesSlot() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        log.reaction = { timeout, tag in
            #expect(!set.isScheduled(timeout))
            if tag < 3 { set.schedule(at: loop.now + .milliseconds(10), tag: tag + 1) }
        }
        set.schedule(at: ms(10), tag: 1)
        loop.run(until: ms(100))
        #expect(log.times == [10, 20, 30])
        #expect(set.entryCount == 0)
    }

    @Test("invalidate() cancels every timeout, takes the set out of its loop and lets go of the handler")
    func invalidateDetaches() {
        let (loop, _) = makeVirtualLoop()
        weak var released: TimeoutLog?
        let set: TimeoutSet
        do {
            let log = TimeoutLog(loop)
            released = log
            set = TimeoutSet(on: loop, handler: log)
        }
        let timeout = set.schedule(at: ms(10))
        set.invalidate()
        #expect(released == nil)
        #expect(!set.isValid && set.count == 0 && !set.isScheduled(timeout))
        #expect(loop.run(until: ms(100)) == .finished)
        #expect(!set.isScheduled(set.schedule(at: ms(10))))
    }

    @Test("Random schedule, cancel, reschedule and fire match a model; tombstones stay within a quarter of the heap")
    func randomOperationsMatchModel() {
        let (loop, _) = makeVirtualLoop()
        let log = TimeoutLog(loop)
        let set = TimeoutSet(on: loop, handler: log)
        var random = TimerQueueTests.SplitMix(state: 11)
        // Scheduled timeouts: tag → (deadline ms, order of scheduling or last move).
        var model: [UInt64: (deadline: Int64, sequence: Int)] = [:]
        var handles: [UInt64: TimeoutSet.Timeout] = [:]
        var stale: [TimeoutSet.Timeout] = []
        var sequence = 0
        var nextTag: UInt64 = 0
        for _ in 0..<4_000 {
            sequence += 1
            let now = loop.now.milliseconds
            let action = random.next(10)
            if action < 4 || model.isEmpty {
                nextTag += 1
                let deadline = now + Int64(random.next(200))
                handles[nextTag] = set.schedule(at: ms(deadline), tag: nextTag)
                model[nextTag] = (deadline, sequence)
            } else if action < 6 {
                let tag = model.keys.sorted()[random.next(model.count)]
                #expect(set.cancel(handles[tag]!))
                stale.append(handles[tag]!)
                model[tag] = nil
            } else if action < 8 {
                let tag = model.keys.sorted()[random.next(model.count)]
                let deadline = now + Int64(random.next(200))
                #expect(set.reschedule(handles[tag]!, to: ms(deadline)))
                model[tag] = (deadline, sequence)
            } else if action == 8, let old = stale.popLast() {
                #expect(!set.cancel(old))
            } else {
                let until = now + Int64(random.next(30))
                let due = model.filter { $0.value.deadline <= until }
                    .sorted { ($0.value.deadline, $0.value.sequence) < ($1.value.deadline, $1.value.sequence) }
                log.fired = []
                loop.run(until: ms(until))
                #expect(log.tags == due.map(\.key))
                for (tag, _) in due {
                    stale.append(handles[tag]!)
                    model[tag] = nil
                }
            }
            #expect(set.count == model.count)
            #expect(4 * set.tombstoneCount <= set.entryCount)
            #expect(set.isConsistent)
        }
    }
}
