import Glibc
import RunLoopKit

/// RunLoopKit: `RunLoop` + `Timer`.
enum RunLoopKitPeer: Peer {
    static let name = "RunLoopKit"

    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        let loop = RunLoop()
        // TIMERDECK_BENCH_LOOP_METRICS=1: the same run with the loop's metrics on (no backend
        // bootstrapped, so swift-metrics' no-op handlers: the cost is the loop's own bookkeeping).
        if getenv("TIMERDECK_BENCH_LOOP_METRICS") != nil { loop.reportMetrics() }
        // One object captured, as a block capturing `self` does: the closure's context is that
        // object, so each timer is one allocation (the timeout set's handler is one object too).
        let progress = Fired()
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count, scatter: scatter)
        for _ in 0..<count {
            let deadline = Instant(nanoseconds: run.start + spreadSource.next(below: spread))
            let timer = Timer(fireAt: deadline, interval: .zero, repeats: false) { _ in
                progress.fired += 1
                progress.lastCallback = monotonicNanoseconds()
            }
            if tolerance > 0 { timer.tolerance = .nanoseconds(tolerance) }
            loop.add(timer, forMode: .default)
            run.interleave()
        }
        run.scheduledAll()
        loop.run(mode: .default, until: .distantFuture)
        // Measured with the loop still alive: freeing it (and glibc consolidating the freed timers)
        // is teardown, not firing; every peer is measured so.
        let after = withExtendedLifetime((loop, run)) { ResourceUsage.now() }
        return run.result(
            peer: name, after: after, lastCallback: progress.lastCallback, deadlines: spreadSource,
            fired: progress.fired)
    }

    /// How many timers fired, and when the last did.
    private final class Fired {
        var fired = 0
        var lastCallback: Int64 = 0
    }

    static func cancel(count: Int) -> ThroughputResult {
        let loop = RunLoop()
        var spreadSource = DeadlineSpread()
        let far = monotonicNanoseconds() + 3_600_000_000_000
        var timers: [Timer] = []
        timers.reserveCapacity(count)
        let start = monotonicNanoseconds()
        for _ in 0..<count {
            let timer = Timer(
                fireAt: Instant(nanoseconds: far + spreadSource.next(below: 1_000_000_000)),
                interval: .zero, repeats: false
            ) { _ in }
            loop.add(timer, forMode: .default)
            timers.append(timer)
        }
        let scheduled = monotonicNanoseconds()
        for timer in timers { timer.fireDate = timer.fireDate + .seconds(1) }
        let rescheduled = monotonicNanoseconds()
        for timer in timers { timer.invalidate() }
        let cancelled = monotonicNanoseconds()
        return cancelResult(
            count: count, start: start, scheduled: scheduled, rescheduled: rescheduled, cancelled: cancelled)
    }

    static func lateness(interval: Int64, duration: Int64) -> LatenessResult {
        let loop = RunLoop()
        var fireTimes: [Int64] = []
        fireTimes.reserveCapacity(Int(duration / interval) + 16)
        let start = monotonicNanoseconds()
        let timer = Timer(
            fireAt: Instant(nanoseconds: start + interval), interval: .nanoseconds(interval),
            repeats: true
        ) { _ in
            let now = monotonicNanoseconds()
            fireTimes.append(now)
            if now >= start + duration { loop.stop() }
        }
        loop.add(timer, forMode: .default)
        loop.run(mode: .default, until: .distantFuture)
        timer.invalidate()
        return latenessResult(interval: interval, duration: duration, start: start, fireTimes: fireTimes)
    }

    static func idle(duration: Int64) -> IdleResult {
        let loop = RunLoop()
        var remaining = Int(duration / Nanoseconds.perSecond)
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        let timer = Timer(fireAt: Instant(nanoseconds: start + 1_000_000_000), interval: .seconds(1), repeats: true) {
            timer in
            remaining -= 1
            if remaining == 0 { timer.invalidate() }
        }
        loop.add(timer, forMode: .default)
        loop.run(mode: .default, until: .distantFuture)
        let seconds = Nanoseconds.seconds(monotonicNanoseconds() - start)
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
