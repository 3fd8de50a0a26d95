import RunLoopKit

/// RunLoopKit: `RunLoop` + `TimeoutSet`, the timeouts without an object each, one handler for all.
enum TimeoutSetPeer: ThroughputPeer {
    static let name = "RunLoopKit TimeoutSet"

    /// Counts the timeouts that fired and when the last one did.
    private final class Counter: TimeoutHandler {
        var fired = 0
        var lastCallback: Int64 = 0

        func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {
            fired += 1
            lastCallback = monotonicNanoseconds()
        }
    }

    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        let loop = RunLoop()
        let counter = Counter()
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count, scatter: scatter)
        let timeouts = TimeoutSet(on: loop, tolerance: .nanoseconds(tolerance), handler: counter)
        for _ in 0..<count {
            timeouts.schedule(at: Instant(nanoseconds: run.start + spreadSource.next(below: spread)))
            run.interleave()
        }
        run.scheduledAll()
        loop.run(mode: .default, until: .distantFuture)
        let after = withExtendedLifetime((loop, timeouts, run)) { ResourceUsage.now() }
        return run.result(
            peer: name, after: after, lastCallback: counter.lastCallback, deadlines: spreadSource, fired: counter.fired)
    }

    static func cancel(count: Int) -> ThroughputResult {
        let loop = RunLoop()
        var spreadSource = DeadlineSpread()
        let far = monotonicNanoseconds() + 3_600_000_000_000
        let timeouts = TimeoutSet(on: loop, handler: Counter())
        var handles: [TimeoutSet.Timeout] = []
        handles.reserveCapacity(count)
        let start = monotonicNanoseconds()
        for _ in 0..<count {
            handles.append(timeouts.schedule(at: Instant(nanoseconds: far + spreadSource.next(below: 1_000_000_000))))
        }
        let scheduled = monotonicNanoseconds()
        for handle in handles {
            if let deadline = timeouts.deadline(of: handle) { timeouts.reschedule(handle, to: deadline + .seconds(1)) }
        }
        let rescheduled = monotonicNanoseconds()
        for handle in handles { timeouts.cancel(handle) }
        let cancelled = monotonicNanoseconds()
        return withExtendedLifetime(loop) {
            cancelResult(
                count: count, start: start, scheduled: scheduled, rescheduled: rescheduled, cancelled: cancelled)
        }
    }
}
