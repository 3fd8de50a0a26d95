import Dispatch
import Synchronization

/// A timer on a serial dispatch queue, as ``QueuePeer`` drives it: a value around the timer
/// object, so that driving it allocates nothing of its own.
protocol QueueTimer {
    /// A stopped timer that calls `handler` on `queue`.
    init(queue: DispatchQueue, handler: @escaping @Sendable () -> Void)
    /// A stopped timer on `queue` whose every fire goes to `progress`; its handler captures
    /// `progress` alone, so it needs no closure context (the throughput runs count its bytes).
    init(queue: DispatchQueue, counting progress: FireProgress)
    /// Starts it: first at `deadline` (uptime ns), then every `interval` ns (`nil`: once), with `leeway` ns.
    func start(at deadline: Int64, repeating interval: Int64?, leeway: Int64)
    /// Cancels it.
    func cancel()
}

/// A peer whose timers run on a serial queue: bare libdispatch and RunLoopKit's `DispatchTimer`,
/// measured by the same code so their rows differ by the timer alone.
protocol QueuePeer: Peer {
    associatedtype Timer: QueueTimer
}

/// The fires of a throughput run on a queue: how many, the last one's time, and a signal at the last.
final class FireProgress: Sendable {
    private let state = Mutex((fired: 0, last: Int64(0)))
    private let done = DispatchSemaphore(value: 0)
    private let count: Int

    init(count: Int) {
        self.count = count
    }

    /// One fire, now.
    func record() {
        let finished = state.withLock { state -> Bool in
            state.fired += 1
            state.last = monotonicNanoseconds()
            return state.fired == count
        }
        if finished { done.signal() }
    }

    /// Waits for the last fire; returns how many fired and when the last did.
    func waitForAll() -> (fired: Int, last: Int64) {
        done.wait()
        return state.withLock { ($0.fired, $0.last) }
    }
}

extension QueuePeer {
    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        let queue = DispatchQueue(label: "bench.fire")
        let progress = FireProgress(count: count)
        var spreadSource = DeadlineSpread()
        var timers: [Timer] = []
        timers.reserveCapacity(count)
        var run = FireRun(count: count, scatter: scatter)
        for _ in 0..<count {
            let timer = Timer(queue: queue, counting: progress)
            timer.start(at: run.start + spreadSource.next(below: spread), repeating: nil, leeway: tolerance)
            timers.append(timer)
        }
        run.scheduledAll()
        let (fired, last) = progress.waitForAll()
        let after = ResourceUsage.now()
        for timer in timers { timer.cancel() }
        return run.result(peer: name, after: after, lastCallback: last, deadlines: spreadSource, fired: fired)
    }

    static func cancel(count: Int) -> ThroughputResult {
        let queue = DispatchQueue(label: "bench.cancel")
        var timers: [Timer] = []
        timers.reserveCapacity(count)
        let start = monotonicNanoseconds()
        for _ in 0..<count {
            let timer = Timer(queue: queue) {}
            timer.start(at: monotonicNanoseconds() + 3_600_000_000_000, repeating: nil, leeway: 0)
            timers.append(timer)
        }
        let scheduled = monotonicNanoseconds()
        for timer in timers { timer.cancel() }
        let cancelled = monotonicNanoseconds()
        return ThroughputResult(
            peer: name, timers: count,
            scheduleNanoseconds: Double(scheduled - start) / Double(count),
            cancelNanoseconds: Double(cancelled - scheduled) / Double(count),
            note: "cancel is asynchronous: this is the caller's cost only")
    }

    static func lateness(interval: Int64, duration: Int64) -> LatenessResult {
        let queue = DispatchQueue(label: "bench.lateness")
        let times = Mutex<[Int64]>([])
        let done = DispatchSemaphore(value: 0)
        let start = monotonicNanoseconds()
        let timer = Timer(queue: queue) {
            let now = monotonicNanoseconds()
            times.withLock { $0.append(now) }
            if now >= start + duration { done.signal() }
        }
        timer.start(at: start + interval, repeating: interval, leeway: 0)
        done.wait()
        timer.cancel()
        return latenessResult(interval: interval, duration: duration, start: start, fireTimes: times.withLock { $0 })
    }

    static func idle(duration: Int64) -> IdleResult {
        let queue = DispatchQueue(label: "bench.idle")
        let remaining = Mutex(Int(duration / Nanoseconds.perSecond))
        let done = DispatchSemaphore(value: 0)
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        let timer = Timer(queue: queue) {
            if remaining.withLock({
                $0 -= 1
                return $0
            }) == 0 {
                done.signal()
            }
        }
        timer.start(at: start + 1_000_000_000, repeating: 1_000_000_000, leeway: 0)
        done.wait()
        timer.cancel()
        let seconds = Nanoseconds.seconds(monotonicNanoseconds() - start)
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
