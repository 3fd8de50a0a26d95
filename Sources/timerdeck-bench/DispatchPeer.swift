import Dispatch
import Synchronization

/// libdispatch: `DispatchSourceTimer` on a serial queue.
enum DispatchPeer: Peer {
    static let name = "Dispatch"

    static func fire(count: Int, spread: Int64, tolerance: Int64) -> ThroughputResult {
        let queue = DispatchQueue(label: "bench.fire")
        let state = Mutex((fired: 0, last: Int64(0)))
        let done = DispatchSemaphore(value: 0)
        var spreadSource = DeadlineSpread()
        var sources: [DispatchSourceTimer] = []
        sources.reserveCapacity(count)
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        let origin = DispatchTime.now()
        for _ in 0..<count {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(
                deadline: origin + .nanoseconds(Int(spreadSource.next(below: spread))), repeating: .never,
                leeway: .nanoseconds(Int(tolerance)))
            source.setEventHandler {
                let finished = state.withLock { state -> Bool in
                    state.fired += 1
                    state.last = monotonicNanoseconds()
                    return state.fired == count
                }
                if finished { done.signal() }
            }
            source.activate()
            sources.append(source)
        }
        let scheduled = monotonicNanoseconds()
        let memory = ResourceUsage.now().residentBytes - before.residentBytes
        done.wait()
        let after = ResourceUsage.now()
        for source in sources { source.cancel() }
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
        var sources: [DispatchSourceTimer] = []
        sources.reserveCapacity(count)
        let start = monotonicNanoseconds()
        for _ in 0..<count {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(deadline: .now() + .seconds(3_600), repeating: .never)
            source.setEventHandler {}
            source.activate()
            sources.append(source)
        }
        let scheduled = monotonicNanoseconds()
        for source in sources { source.cancel() }
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
        let source = DispatchSource.makeTimerSource(queue: queue)
        let origin = DispatchTime(uptimeNanoseconds: UInt64(start))
        source.schedule(
            deadline: origin + .nanoseconds(Int(interval)), repeating: .nanoseconds(Int(interval)),
            leeway: .nanoseconds(0))
        source.setEventHandler {
            let now = monotonicNanoseconds()
            times.withLock { $0.append(now) }
            if now >= start + duration { done.signal() }
        }
        source.activate()
        done.wait()
        source.cancel()
        return latenessResult(interval: interval, duration: duration, start: start, fireTimes: times.withLock { $0 })
    }

    static func idle(duration: Int64) -> IdleResult {
        let queue = DispatchQueue(label: "bench.idle")
        let remaining = Mutex(Int(duration / 1_000_000_000))
        let done = DispatchSemaphore(value: 0)
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
        source.setEventHandler {
            if remaining.withLock({
                $0 -= 1
                return $0
            }) == 0 {
                done.signal()
            }
        }
        source.activate()
        done.wait()
        source.cancel()
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
