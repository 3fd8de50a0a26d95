import CPseudoTerminal
import Glibc

/// The kernel floors: a bare `timerfd` for lateness and for one wake-up per deadline, a bare
/// `poll()` loop for an idle countdown.
enum KernelFloor: Peer {
    static let name = "kernel floor"

    /// What the kernel costs at zero tolerance: the deadlines sorted up front (no queue), one
    /// absolute `timerfd` armed at each deadline not yet passed and read in a blocking loop, then
    /// every deadline passed by then served. With tolerance it arms at deadline + tolerance.
    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        let descriptor = timerfd_create(CLOCK_MONOTONIC, 0)
        defer { close(descriptor) }
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count, scatter: scatter)
        var deadlines = (0..<count).map { _ in run.start + spreadSource.next(below: spread) }
        deadlines.sort()
        run.scheduledAll()
        var fired = 0
        var lastCallback: Int64 = 0
        var expirations: UInt64 = 0
        while fired < count {
            var now = monotonicNanoseconds()
            if deadlines[fired] > now {
                let wake = deadlines[fired] + tolerance
                var spec = itimerspec()
                spec.it_value.tv_sec = Int(wake / Nanoseconds.perSecond)
                spec.it_value.tv_nsec = Int(wake % Nanoseconds.perSecond)
                timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
                _ = read(descriptor, &expirations, 8)
                now = monotonicNanoseconds()
            }
            while fired < count && deadlines[fired] <= now {
                fired += 1
                lastCallback = monotonicNanoseconds()
            }
        }
        let after = withExtendedLifetime(deadlines) { ResourceUsage.now() }
        return run.result(peer: name, after: after, lastCallback: lastCallback, deadlines: spreadSource, fired: fired)
    }

    static func cancel(count: Int) -> ThroughputResult {
        ThroughputResult(peer: name, timers: count, note: "a firing floor: no cancel")
    }

    /// A `CLOCK_MONOTONIC` timerfd with `it_interval`, read in a blocking loop: no slack, no queue.
    static func lateness(interval: Int64, duration: Int64) -> LatenessResult {
        let descriptor = timerfd_create(CLOCK_MONOTONIC, 0)
        defer { close(descriptor) }
        let start = monotonicNanoseconds()
        var spec = itimerspec()
        spec.it_value.tv_sec = Int((start + interval) / Nanoseconds.perSecond)
        spec.it_value.tv_nsec = Int((start + interval) % Nanoseconds.perSecond)
        spec.it_interval.tv_sec = Int(interval / Nanoseconds.perSecond)
        spec.it_interval.tv_nsec = Int(interval % Nanoseconds.perSecond)
        timerfd_settime(descriptor, Int32(TFD_TIMER_ABSTIME), &spec, nil)
        var fireTimes: [Int64] = []
        var expirations: UInt64 = 0
        while (fireTimes.last ?? 0) < start + duration {
            guard read(descriptor, &expirations, 8) == 8 else { break }
            fireTimes.append(monotonicNanoseconds())
        }
        return latenessResult(interval: interval, duration: duration, start: start, fireTimes: fireTimes)
    }

    /// A `poll()` loop with a 1000 ms timeout and nothing to watch: the cheapest possible 1 Hz countdown.
    static func idle(duration: Int64) -> IdleResult {
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        var remaining = duration / Nanoseconds.perSecond
        var next = start + 1_000_000_000
        while remaining > 0 {
            let wait = Int32(max(Nanoseconds.millisecondsRoundedUp(next - monotonicNanoseconds()), 0))
            poll(nil, 0, wait)
            if monotonicNanoseconds() >= next {
                remaining -= 1
                next += 1_000_000_000
            }
        }
        let seconds = Nanoseconds.seconds(monotonicNanoseconds() - start)
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
