import TestSupport
import Testing

@testable import RunLoopKit

@Suite("TimerQueue: a mode's timers on the shared records")
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

    @Test("Random insert, remove, update, pop and put back keep heap order, slots and the wake window")
    func randomOperationsMatchModel() {
        let queue = TimerQueue(id: 1)
        var model: [ObjectIdentifier: (deadline: Int64, order: UInt64, tolerance: Int64, timer: Timer)] = [:]
        // Entries taken off by `popFirst` and not yet put back, and which of their timers are still parked.
        var taken: [TimerQueue.Entry] = []
        var parked = Set<ObjectIdentifier>()
        var random = SplitMix(state: 7)
        var order: UInt64 = 0
        for step in 0..<6_000 {
            order += 1
            let action = random.next(13)
            if action == 12, !model.isEmpty {
                // A new tolerance refreshes the entry's latest fire time, parked or not.
                let victim = Array(model.values)[random.next(model.count)]
                let tolerance = Int64(random.next(50))
                victim.timer.tolerance = .nanoseconds(tolerance)
                queue.retolerate(victim.timer)
                model[ObjectIdentifier(victim.timer)]?.tolerance = tolerance
            } else if action < 5 || model.isEmpty {
                let timer = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
                let tolerance = Int64(random.next(50))
                timer.tolerance = .nanoseconds(tolerance)
                let deadline = Int64(random.next(1_000))
                queue.insert(timer, deadline: deadline, order: order)
                model[ObjectIdentifier(timer)] = (deadline, order, tolerance, timer)
            } else if action < 10 {
                let victim = Array(model.values)[random.next(model.count)]
                if action < 8 {
                    queue.remove(victim.timer)
                    model[ObjectIdentifier(victim.timer)] = nil
                    parked.remove(ObjectIdentifier(victim.timer))
                    #expect(!queue.contains(victim.timer))
                } else {
                    let deadline = Int64(random.next(1_000))
                    queue.update(victim.timer, deadline: deadline, order: order)
                    model[ObjectIdentifier(victim.timer)] = (deadline, order, victim.tolerance, victim.timer)
                    parked.remove(ObjectIdentifier(victim.timer))
                }
            } else if action == 10, let entry = queue.popFirst(dueBy: Int64(random.next(1_000))) {
                // Taken off in (deadline, order) order: nothing left in the heap precedes it.
                let timer = entry.timer.takeUnretainedValue()
                let earliest = model.values.filter { !parked.contains(ObjectIdentifier($0.timer)) }
                    .min { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
                #expect(earliest?.timer === timer && queue.contains(timer))
                taken.append(entry)
                parked.insert(ObjectIdentifier(timer))
            } else if !taken.isEmpty {
                // Back with its key if still parked; otherwise its reference is released. Last taken,
                // first put back: an older entry of a timer taken off again is stale.
                let entry = taken.removeLast()
                parked.remove(ObjectIdentifier(entry.timer.takeUnretainedValue()))
                queue.putBack(entry)
            }
            // The window is asked for at every step, so the remembered one is carried across every
            // kind of mutation, under a bound that is sometimes narrower than the heap's own.
            let bound = step % 3 == 0 ? Int64(random.next(1_100)) : Int64.max
            let window = queue.wakeWindow(within: bound, skippingFiring: false)
            let inHeap = model.values.filter { !parked.contains(ObjectIdentifier($0.timer)) }
            // C-T9: the window is found by scanning fire times upwards while they fall inside it.
            let ascending = inHeap.sorted { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
            var expectedHard = bound
            for entry in ascending where entry.deadline <= expectedHard {
                expectedHard = min(expectedHard, entry.deadline + entry.tolerance)
            }
            #expect(window.hard == expectedHard)
            #expect(window.wake == ascending.last { $0.deadline <= expectedHard }?.deadline)
            guard step % 40 == 0 else { continue }
            #expect(queue.isConsistent && queue.count == model.count && queue.parkedCount == parked.count)
            #expect(queue.nextToFire()?.timer.takeUnretainedValue() === ascending.first?.timer)
        }
        for entry in taken.reversed() { queue.putBack(entry) }
        #expect(queue.parkedCount == 0 && queue.count == model.count && queue.isConsistent)
        // Everything comes off in order.
        var previous: TimerQueue.Entry?
        while let entry = queue.popFirst(dueBy: Int64.max) {
            #expect(previous.map { !entry.precedes($0) } ?? true)
            previous = entry
            let timer = entry.timer.takeUnretainedValue()
            queue.remove(timer)
            queue.putBack(entry)
        }
        #expect(queue.isEmpty)
    }

    @Test("The wake-up window is walked once, then kept while changes outside it come and go")
    func windowIsRemembered() {
        let queue = TimerQueue(id: 1)
        var timers: [Timer] = []
        for index in 0..<1_000 {
            let timer = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
            timer.tolerance = .nanoseconds(100)
            queue.insert(timer, deadline: Int64(index * 10), order: UInt64(index + 1))
            timers.append(timer)
        }
        let first = queue.wakeWindow(within: .max, skippingFiring: false)
        #expect(first.hard == 100 && first.wake == 100 && queue.windowWalks == 1)
        // Removing a timer after the window, or inside it but neither its end nor its wake, keeps it.
        queue.remove(timers[500])
        queue.remove(timers[5])
        #expect(queue.wakeWindow(within: .max, skippingFiring: false) == first && queue.windowWalks == 1)
        // A timer inside the window whose own window ends later can raise the wake, still unwalked.
        let late = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
        late.tolerance = .nanoseconds(1_000)
        queue.insert(late, deadline: 100, order: 2_000)
        #expect(queue.wakeWindow(within: .max, skippingFiring: false).wake == 100 && queue.windowWalks == 1)
        // Taking off the timer that sets its end forgets it: the next window is walked.
        queue.remove(timers[0])
        #expect(queue.wakeWindow(within: .max, skippingFiring: false).hard == 110 && queue.windowWalks == 2)
        // Leaving firing timers out is never remembered.
        _ = queue.wakeWindow(within: .max, skippingFiring: true)
        _ = queue.wakeWindow(within: .max, skippingFiring: false)
        #expect(queue.windowWalks == 4)
    }

    @Test("A timer moved later keeps its entry; removed timers leave tombstones within a quarter of the heap")
    func lazyRemovalAndMovesInPlace() {
        let queue = TimerQueue(id: 1)
        let timers = (0..<100).map { index in
            let timer = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
            queue.insert(timer, deadline: Int64(index), order: UInt64(index + 1))
            return timer
        }
        queue.update(timers[3], deadline: 500, order: 200)
        #expect(queue.entryCount == 100 && queue.tombstoneCount == 0)
        for index in stride(from: 0, to: 100, by: 2) {
            queue.remove(timers[index])
            #expect(4 * queue.tombstoneCount <= queue.entryCount)
        }
        #expect(queue.count == 50 && queue.isConsistent)
        // Moved earlier: a new entry, the old one a tombstone.
        queue.update(timers[99], deadline: 0, order: 201)
        var fired: [Int] = []
        while let entry = queue.popFirst(dueBy: .max) {
            let timer = entry.timer.takeUnretainedValue()
            fired.append(timers.firstIndex { $0 === timer }!)
            queue.remove(timer)
            queue.putBack(entry)
        }
        let odd = Array(stride(from: 1, to: 99, by: 2)).filter { $0 != 3 }
        #expect(fired == [99] + odd + [3])
        #expect(queue.isEmpty && queue.parkedCount == 0 && queue.isConsistent)
    }

    @Test("A timer removed while parked frees its slot for the next timer; the pass's stale entry only lets go of it")
    func parkedEntryGoesStaleWhenItsSlotIsReused() {
        let queue = TimerQueue(id: 1)
        weak var weakFirst: Timer?
        var entry: TimerQueue.Entry?
        var firstSlot: Int32?
        do {
            let first = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
            weakFirst = first
            queue.insert(first, deadline: 10, order: 1)
            firstSlot = first.slot(in: 1)
            entry = queue.popFirst(dueBy: 10)
            // Its callout invalidates it: the queue forgets it, the pass still holds its reference.
            queue.remove(first)
        }
        #expect(weakFirst != nil && queue.isEmpty && queue.parkedCount == 0)
        let second = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
        queue.insert(second, deadline: 5, order: 2)
        #expect(second.slot(in: 1) == firstSlot)
        queue.putBack(entry!)
        entry = nil
        // Released, not pushed: the slot's live entry is the second timer's.
        #expect(weakFirst == nil)
        #expect(queue.count == 1 && queue.entryCount == 1 && queue.isConsistent)
        #expect(queue.popFirst(dueBy: .max)?.timer.takeUnretainedValue() === second)
    }

    @Test("A timer moved while it is the held top is re-keyed in place: one entry, one reference, the new order")
    func heldTopMovedInPlace() {
        let queue = TimerQueue(id: 1)
        weak var weakRepeating: Timer?
        let other = Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in }
        do {
            let repeating = Timer(fireAt: .zero, interval: .seconds(1), repeats: true) { _ in }
            weakRepeating = repeating
            queue.insert(repeating, deadline: 10, order: 1)
            queue.insert(other, deadline: 25, order: 2)
            let entry = queue.popFirst(dueBy: 10)!
            #expect(entry.timer.takeUnretainedValue() === repeating && queue.parkedCount == 1)
            // As a pass does after the callout: the next fire time, then the entry back.
            queue.update(repeating, deadline: 20, order: 3)
            queue.putBack(entry)
            #expect(queue.parkedCount == 0 && queue.entryCount == 2 && queue.tombstoneCount == 0 && queue.isConsistent)
            #expect(queue.nextToFire()?.deadline == 20 && queue.nextToFire()?.order == 3)
            // Moved past the other timer from the top: the other comes first now.
            let again = queue.popFirst(dueBy: 20)!
            queue.update(repeating, deadline: 30, order: 4)
            queue.putBack(again)
            #expect(queue.nextToFire()?.timer.takeUnretainedValue() === other && queue.isConsistent)
            queue.remove(repeating)
        }
        // The queue held exactly one reference through both moves: removing it frees the timer.
        #expect(weakRepeating == nil)
        #expect(queue.count == 1 && queue.isConsistent)
    }

    @Test("A top known settled is settled again after a change: its timer removed or moved later, an earlier one added")
    func settledTopForgottenOnChange() {
        let queue = TimerQueue(id: 1)
        let timers = (0..<4).map { _ in Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in } }
        // Later timers, so that one tombstone does not sweep the heap (a sweep settles it anew).
        let later = (0..<8).map { _ in Timer(fireAt: .zero, interval: .zero, repeats: false) { _ in } }
        for (index, timer) in later.enumerated() { queue.insert(timer, deadline: 100, order: 100 + UInt64(index)) }
        queue.insert(timers[0], deadline: 10, order: 1)
        queue.insert(timers[1], deadline: 20, order: 2)
        #expect(queue.nextToFire()?.timer.takeUnretainedValue() === timers[0])
        queue.remove(timers[0])
        #expect(queue.nextToFire()?.timer.takeUnretainedValue() === timers[1])
        // Moved later in place: its entry is a lower bound, re-keyed when found on the top.
        queue.update(timers[1], deadline: 40, order: 3)
        #expect(queue.nextToFire()?.deadline == 40 && queue.nextToFire()?.order == 3)
        queue.insert(timers[2], deadline: 30, order: 4)
        #expect(queue.nextToFire()?.timer.takeUnretainedValue() === timers[2])
        queue.insert(timers[3], deadline: 5, order: 5)
        #expect(queue.nextToFire()?.deadline == 5)
        // Taken and put back: the same top again.
        let entry = queue.popFirst(dueBy: 5)!
        queue.putBack(entry)
        #expect(queue.nextToFire()?.timer.takeUnretainedValue() === timers[3] && queue.isConsistent)
        for timer in timers.dropFirst() + later { queue.remove(timer) }
        #expect(queue.nextToFire() == nil && queue.isEmpty)
    }

    @Test("A timer in two queues holds a slot in each; removing one leaves the other")
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
}
