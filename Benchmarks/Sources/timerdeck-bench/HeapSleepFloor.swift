import Glibc

/// libev's design as a floor for the timer loops: a binary min-heap of (deadline, callback) on one
/// thread that sleeps with `clock_nanosleep(TIMER_ABSTIME)` until the earliest deadline, under the
/// kernel's default 50 µs timer slack. With tolerance it sleeps until the earliest deadline plus the
/// tolerance, so one wake-up serves every timer in that window. Nothing else: no modes, observers,
/// cancel handles or cross-thread wake-ups. It fires but does not cancel.
enum HeapSleepFloor: Peer {
    static let name = "heap+nanosleep"

    /// A min-heap of deadlines and their callbacks, in one array.
    private struct Heap {
        struct Entry {
            var deadline: Int64
            var callback: () -> Void
        }

        private(set) var entries: [Entry] = []

        mutating func reserve(_ count: Int) { entries.reserveCapacity(count) }

        var first: Entry? { entries.first }

        mutating func push(_ entry: Entry) {
            entries.append(entry)
            var index = entries.count - 1
            while index > 0 {
                let parent = (index - 1) / 2
                guard entries[index].deadline < entries[parent].deadline else { break }
                entries.swapAt(index, parent)
                index = parent
            }
        }

        mutating func pop() -> Entry {
            let top = entries[0]
            let last = entries.removeLast()
            guard !entries.isEmpty else { return top }
            entries[0] = last
            var index = 0
            while true {
                let left = 2 * index + 1
                guard left < entries.count else { break }
                var child = left
                if left + 1 < entries.count && entries[left + 1].deadline < entries[left].deadline { child = left + 1 }
                guard entries[child].deadline < entries[index].deadline else { break }
                entries.swapAt(index, child)
                index = child
            }
            return top
        }
    }

    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        var heap = Heap()
        heap.reserve(count)
        var fired = 0
        var lastCallback: Int64 = 0
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count, scatter: scatter)
        for _ in 0..<count {
            heap.push(
                .init(deadline: run.start + spreadSource.next(below: spread)) {
                    fired += 1
                    lastCallback = monotonicNanoseconds()
                })
            run.interleave()
        }
        run.scheduledAll()
        while let earliest = heap.first {
            let now = monotonicNanoseconds()
            guard earliest.deadline <= now else {
                sleep(until: earliest.deadline + tolerance)
                continue
            }
            while let next = heap.first, next.deadline <= now { heap.pop().callback() }
        }
        let after = withExtendedLifetime(heap) { ResourceUsage.now() }
        return run.result(peer: name, after: after, lastCallback: lastCallback, deadlines: spreadSource, fired: fired)
    }

    static func cancel(count: Int) -> ThroughputResult {
        ThroughputResult(peer: name, timers: count, note: "a firing floor: no cancel")
    }

    /// A repeating deadline slept to with `clock_nanosleep` and the default slack.
    static func lateness(interval: Int64, duration: Int64) -> LatenessResult {
        let start = monotonicNanoseconds()
        var next = start + interval
        var fireTimes: [Int64] = []
        while (fireTimes.last ?? 0) < start + duration {
            sleep(until: next)
            let now = monotonicNanoseconds()
            fireTimes.append(now)
            next += ((now - next) / interval + 1) * interval
        }
        return latenessResult(interval: interval, duration: duration, start: start, fireTimes: fireTimes)
    }

    /// One `clock_nanosleep` a second.
    static func idle(duration: Int64) -> IdleResult {
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        var next = start
        while next < start + duration {
            next += 1_000_000_000
            sleep(until: next)
        }
        let seconds = Nanoseconds.seconds(monotonicNanoseconds() - start)
        return idleResult(seconds: seconds, before: before, after: .now())
    }

    /// Sleeps until the absolute `CLOCK_MONOTONIC` time `deadline` (ns).
    private static func sleep(until deadline: Int64) {
        var spec = Nanoseconds.timespec(deadline)
        // clock_nanosleep returns its error instead of setting errno; to an absolute deadline, so
        // sleeping again after a signal is exact.
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &spec, nil) == EINTR {}
    }
}
