import Testing

@testable import RunLoopKit

@Suite("TimerQueue: indexed 4-ary heap")
struct TimerQueueTests {
    /// A small deterministic generator (SplitMix64) so the random operations repeat exactly.
    struct SplitMix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test("Random insert, remove and update keep heap order, positions and tickets consistent")
    func randomOperationsKeepInvariants() {
        let queue = TimerQueue(id: 1)
        var model: [ObjectIdentifier: (deadline: Int64, order: UInt64, timer: Timer)] = [:]
        var random = SplitMix(state: 7)
        var order: UInt64 = 0
        for step in 0..<5_000 {
            if step % 500 == 0 { #expect(queue.isConsistent) }
            order += 1
            let action = random.next(10)
            if action < 5 || model.isEmpty {
                let timer = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
                let deadline = Int64(random.next(500))
                queue.insert(timer, deadline: deadline, order: order)
                model[ObjectIdentifier(timer)] = (deadline, order, timer)
            } else {
                let victim = Array(model.values)[random.next(model.count)]
                if action < 8 {
                    queue.remove(victim.timer)
                    model[ObjectIdentifier(victim.timer)] = nil
                    #expect(!queue.contains(victim.timer))
                } else {
                    let deadline = Int64(random.next(500))
                    queue.update(victim.timer, deadline: deadline, order: order)
                    model[ObjectIdentifier(victim.timer)] = (deadline, order, victim.timer)
                }
            }
        }
        #expect(queue.count == model.count)
        #expect(queue.isConsistent)
        var due: [TimerQueue.Due] = []
        queue.collectDue(atOrBefore: 250, into: &due)
        #expect(due.count == model.values.filter { $0.deadline <= 250 }.count)
        let expectedFirst = model.values.min { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
        #expect(queue.first?.timer === expectedFirst?.timer)
    }

    @Test("A timer in two queues holds a ticket in each; removing one leaves the other")
    func timerInTwoQueues() {
        let first = TimerQueue(id: 1)
        let second = TimerQueue(id: 2)
        let third = TimerQueue(id: 3)
        let timer = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
        first.insert(timer, deadline: 5, order: 1)
        second.insert(timer, deadline: 5, order: 2)
        third.insert(timer, deadline: 5, order: 3)
        #expect(timer.queueIDs == [1, 2, 3])
        second.remove(timer)
        #expect(timer.queueIDs == [1, 3])
        #expect(first.contains(timer) && third.contains(timer) && !second.contains(timer))
        first.remove(timer)
        #expect(timer.queueIDs == [3] && timer.isQueued)
        #expect(third.contains(timer) && third.isConsistent)
        third.remove(timer)
        #expect(timer.queueIDs.isEmpty && !timer.isQueued)
    }

    @Test("A queue that goes away gives its timers back: a timer that outlives its run loop joins another")
    func timerOutlivesItsRunLoop() {
        let timer = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
        do {
            let (loop, _) = makeVirtualLoop()
            loop.add(timer, forMode: .default)
        }
        #expect(!timer.isQueued && timer.modes.isEmpty)
        let (loop, _) = makeVirtualLoop()
        loop.add(timer, forMode: .default)
        #expect(timer.modes == [.default])
        loop.run(until: ms(1))
        #expect(!timer.isValid)
    }

    @Test("Both rungs: with a tiny heap target, random operations keep order, due set and wake window")
    func twoRungsMatchModel() {
        let queue = TimerQueue(id: 1, heapTarget: 4)
        var model: [ObjectIdentifier: (deadline: Int64, order: UInt64, tolerance: Int64, timer: Timer)] = [:]
        var random = SplitMix(state: 11)
        var order: UInt64 = 0
        for step in 0..<4_000 {
            order += 1
            let action = random.next(10)
            if action < 5 || model.isEmpty {
                let timer = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
                let tolerance = Int64(random.next(50))
                timer.tolerance = .nanoseconds(tolerance)
                let deadline = Int64(random.next(1_000))
                queue.insert(timer, deadline: deadline, order: order)
                model[ObjectIdentifier(timer)] = (deadline, order, tolerance, timer)
            } else {
                let victim = Array(model.values)[random.next(model.count)]
                if action < 8 {
                    queue.remove(victim.timer)
                    model[ObjectIdentifier(victim.timer)] = nil
                } else {
                    let deadline = Int64(random.next(1_000))
                    queue.update(victim.timer, deadline: deadline, order: order)
                    model[ObjectIdentifier(victim.timer)] = (deadline, order, victim.tolerance, victim.timer)
                }
            }
            guard step % 40 == 0 else { continue }
            #expect(queue.isConsistent && queue.count == model.count)
            let ascending = model.values.sorted { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
            #expect(queue.first?.timer === ascending.first?.timer)
            // C-T9: the window is found by scanning fire times upwards while they fall inside it.
            var expectedHard = Int64.max
            for entry in ascending where entry.deadline <= expectedHard {
                expectedHard = min(expectedHard, entry.deadline + entry.tolerance)
            }
            var hard = Int64.max
            queue.narrowHardDeadline(&hard)
            var wake: Int64?
            queue.latestFireTime(atOrBefore: hard, raising: &wake)
            #expect(hard == expectedHard && wake == ascending.last { $0.deadline <= hard }?.deadline)
            let limit = Int64(random.next(1_000))
            var due: [TimerQueue.Due] = []
            queue.collectDue(atOrBefore: limit, into: &due)
            #expect(
                Set(due.map { ObjectIdentifier($0.timer) })
                    == Set(model.values.filter { $0.deadline <= limit }.map { ObjectIdentifier($0.timer) }))
            #expect(queue.isConsistent)
        }
    }
}
