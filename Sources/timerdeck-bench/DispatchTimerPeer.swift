import Dispatch
import RunLoopKit
import Synchronization

/// RunLoopKit's `DispatchTimer` on a serial queue: the wrapper's cost over bare `DispatchSourceTimer`
/// (``DispatchPeer``), measured the same way.
enum DispatchTimerPeer: Peer {
    static let name = "RunLoopKit DispatchTimer"

    static func fire(count: Int, spread: Int64, tolerance: Int64) -> ThroughputResult {
        let queue = DispatchQueue(label: "bench.fire")
        let state = Mutex((fired: 0, last: Int64(0)))
        let done = DispatchSemaphore(value: 0)
        var spreadSource = DeadlineSpread()
        var timers: [DispatchTimer] = []
        timers.reserveCapacity(count)
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        for _ in 0..<count {
            let timer = DispatchTimer(queue: queue) { _ in
                let finished = state.withLock { state -> Bool in
                    state.fired += 1
                    state.last = monotonicNanoseconds()
                    return state.fired == count
                }
                if finished { done.signal() }
            }
            timer.schedule(
                deadline: .at(Instant(nanoseconds: start + spreadSource.next(below: spread))),
                leeway: .nanoseconds(tolerance))
            timer.resume()
            timers.append(timer)
        }
        let scheduled = monotonicNanoseconds()
        let memory = ResourceUsage.now().residentBytes - before.residentBytes
        done.wait()
        let after = ResourceUsage.now()
        for timer in timers { timer.cancel() }
        let (fired, last) = state.withLock { ($0.fired, $0.last) }
        return ThroughputResult(
            peer: name, timers: count, scheduleNanoseconds: Double(scheduled - start) / Double(count),
            cpuPerTimerNanoseconds: Double(after.cpuNanoseconds - before.cpuNanoseconds) / Double(count),
            lastCallbackSeconds: Double(last - scheduled) / 1e9,
            lagMilliseconds: spreadSource.lagMilliseconds(origin: start, lastCallback: last),
            bytesPerTimer: Double(memory) / Double(count), fired: fired)
    }

    static func cancel(count: Int) -> ThroughputResult {
        let queue = DispatchQueue(label: "bench.cancel")
        var timers: [DispatchTimer] = []
        timers.reserveCapacity(count)
        let start = monotonicNanoseconds()
        for _ in 0..<count {
            let timer = DispatchTimer(queue: queue) { _ in }
            timer.schedule(deadline: .after(.seconds(3_600)))
            timer.resume()
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
        let timer = DispatchTimer(queue: queue) { _ in
            let now = monotonicNanoseconds()
            times.withLock { $0.append(now) }
            if now >= start + duration { done.signal() }
        }
        timer.schedule(
            deadline: .at(Instant(nanoseconds: start + interval)), repeating: .nanoseconds(interval))
        timer.resume()
        done.wait()
        timer.cancel()
        return latenessResult(interval: interval, duration: duration, start: start, fireTimes: times.withLock { $0 })
    }

    static func idle(duration: Int64) -> IdleResult {
        let queue = DispatchQueue(label: "bench.idle")
        let remaining = Mutex(Int(duration / 1_000_000_000))
        let done = DispatchSemaphore(value: 0)
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        let timer = DispatchTimer(queue: queue) { _ in
            if remaining.withLock({
                $0 -= 1
                return $0
            }) == 0 {
                done.signal()
            }
        }
        timer.schedule(deadline: .after(.seconds(1)), repeating: .seconds(1))
        timer.resume()
        done.wait()
        timer.cancel()
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
