import CPseudoTerminal
import Glibc

/// The kernel floors: a bare `timerfd` for lateness, a bare `poll()` loop for an idle countdown.
enum KernelFloor: Peer {
    static let name = "kernel floor"

    static func fire(count: Int, spread: Int64, tolerance: Int64) -> ThroughputResult {
        ThroughputResult(peer: name, timers: count, note: "no timer queue: lateness and idle floors only")
    }

    static func cancel(count: Int) -> ThroughputResult {
        fire(count: count, spread: 0, tolerance: 0)
    }

    /// A `CLOCK_MONOTONIC` timerfd with `it_interval`, read in a blocking loop: no slack, no queue.
    static func lateness(interval: Int64, duration: Int64) -> LatenessResult {
        let descriptor = timerfd_create(CLOCK_MONOTONIC, 0)
        defer { close(descriptor) }
        let start = monotonicNanoseconds()
        var spec = itimerspec()
        spec.it_value.tv_sec = Int((start + interval) / 1_000_000_000)
        spec.it_value.tv_nsec = Int((start + interval) % 1_000_000_000)
        spec.it_interval.tv_sec = Int(interval / 1_000_000_000)
        spec.it_interval.tv_nsec = Int(interval % 1_000_000_000)
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
        var remaining = duration / 1_000_000_000
        var next = start + 1_000_000_000
        while remaining > 0 {
            let wait = Int32(max((next - monotonicNanoseconds() + 999_999) / 1_000_000, 0))
            poll(nil, 0, wait)
            if monotonicNanoseconds() >= next {
                remaining -= 1
                next += 1_000_000_000
            }
        }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
