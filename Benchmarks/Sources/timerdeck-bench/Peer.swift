/// A timer implementation whose throughput is measured side by side with the others.
protocol ThroughputPeer {
    /// Name in the report.
    static var name: String { get }
    /// Schedules `count` one-shot timers with deadlines spread over `spread` ns, each with
    /// `tolerance` ns of tolerance (leeway), and runs until all fired. Peers that can keep `scatter`
    /// bytes of other objects between consecutive timers (``FireRun/interleave()``) do; the others ignore it.
    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult
    /// Schedules `count` one-shot timers far in the future, then cancels them all; peers with a call
    /// that moves a scheduled timer (libev's `ev_timer_again`, a `Timer`'s fire date, a timeout
    /// set's `reschedule`) move each one second later before the cancel.
    static func cancel(count: Int) -> ThroughputResult
}

extension ThroughputPeer {
    /// A cancel row: `count` timers scheduled from `start` to `scheduled`, moved later by
    /// `rescheduled` when the peer moves them, and cancelled by `cancelled` (ns).
    static func cancelResult(count: Int, start: Int64, scheduled: Int64, rescheduled: Int64? = nil, cancelled: Int64)
        -> ThroughputResult
    {
        var row = ThroughputResult(
            peer: name, timers: count, scheduleNanoseconds: Double(scheduled - start) / Double(count),
            cancelNanoseconds: Double(cancelled - (rescheduled ?? scheduled)) / Double(count))
        row.rescheduleLaterNanoseconds = rescheduled.map { Double($0 - scheduled) / Double(count) }
        return row
    }
}

/// A timer implementation measured side by side with the others in every section.
protocol Peer: ThroughputPeer {
    /// Runs a repeating timer of `interval` ns for `duration` ns and measures each fire's lateness.
    static func lateness(interval: Int64, duration: Int64) -> LatenessResult
    /// Runs a 1 Hz countdown for `duration` ns and measures wake-ups and CPU.
    static func idle(duration: Int64) -> IdleResult
}

extension Peer {
    /// Lateness of each fire against the grid `start + k × interval`, plus the count of grid slots:
    /// those up to and including the first one at or after `start + duration`, the fire that ends a run.
    /// The percentiles leave out the first tenth of the run (a warm-up: page faults, first calls);
    /// every fire counts as delivered.
    static func latenessResult(interval: Int64, duration: Int64, start: Int64, fireTimes: [Int64]) -> LatenessResult {
        var lateness: [Int64] = []
        lateness.reserveCapacity(fireTimes.count)
        for time in fireTimes where time >= start + duration / 10 {
            let slot = max((time - start) / interval, 1)
            lateness.append(time - (start + slot * interval))
        }
        let distribution = Distribution(lateness)
        return LatenessResult(
            peer: name, intervalMicroseconds: Double(interval) / 1_000,
            p50Microseconds: Double(distribution.percentile(0.5)) / 1_000,
            p99Microseconds: Double(distribution.percentile(0.99)) / 1_000,
            maxMicroseconds: Double(distribution.max) / 1_000,
            delivered: fireTimes.count, gridSlots: Int((duration + interval - 1) / interval))
    }

    static func idleResult(seconds: Double, before: ResourceUsage, after: ResourceUsage, threads: Int? = nil)
        -> IdleResult
    {
        IdleResult(
            peer: name, seconds: seconds,
            wakeUpsPerSecond: Double(after.voluntarySwitches - before.voluntarySwitches) / seconds,
            cpuMilliseconds: Nanoseconds.milliseconds(after.cpuNanoseconds - before.cpuNanoseconds),
            threads: threads)
    }
}
