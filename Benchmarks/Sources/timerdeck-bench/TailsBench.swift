import CCycleCounter
import Histogram
import RunLoopKit

/// The tails of single operations: each schedule, cancel and fire of a `TimeoutSet` timeout and of
/// a `Timer`, timed alone with the cycle counter at a steady number of pending timers, into an
/// HdrHistogram (3 significant digits).
///
/// Schedule and cancel: with `population` timers pending (deadlines spread over a second, an hour
/// away), each operation schedules one more and then cancels one picked at random, so the
/// population stays where it is. Fire: `population` timers all due, run by the loop; the time from
/// one callout to the next is one fire's cost.
enum TailsBench {
    enum Kind: String, CaseIterable {
        case timeoutSet = "RunLoopKit TimeoutSet"
        case timer = "RunLoopKit"
    }

    static let populations = [4_096, 65_536, 262_144, 1_048_576]

    static func run(_ kind: Kind, population: Int, operations: Int) -> TailsResult {
        let cycles = CycleScale()
        var schedule = Tail(cycles)
        var cancel = Tail(cycles)
        var fire = Tail(cycles)
        switch kind {
        case .timeoutSet: timeouts(population, operations, &schedule, &cancel, &fire)
        case .timer: timers(population, operations, &schedule, &cancel, &fire)
        }
        var empty = Tail(cycles)
        for _ in 0..<operations {
            let start = ccc_cycles()
            empty.record(from: start, to: ccc_cycles())
        }
        return TailsResult(
            peer: kind.rawValue, pending: population, operations: operations, schedule: schedule.percentiles,
            cancel: cancel.percentiles, fire: fire.percentiles, emptyReadingNanoseconds: empty.percentiles.p50)
    }

    private static func timeouts(
        _ population: Int, _ operations: Int, _ schedule: inout Tail, _ cancel: inout Tail, _ fire: inout Tail
    ) {
        let loop = RunLoop()
        let far = monotonicNanoseconds() + 3_600_000_000_000
        var spread = DeadlineSpread()
        let timeouts = TimeoutSet(on: loop, handler: NoTimeouts())
        var pending = (0..<population).map { _ in
            timeouts.schedule(at: Instant(nanoseconds: far + spread.next(below: 1_000_000_000)))
        }
        for _ in 0..<operations {
            let deadline = Instant(nanoseconds: far + spread.next(below: 1_000_000_000))
            let victim = Int(spread.next(below: Int64(population)))
            // The victim's handle is read before the clock starts, as a caller holds the handle it cancels.
            let cancelled = pending[victim]
            let start = ccc_cycles()
            let added = timeouts.schedule(at: deadline)
            let scheduled = ccc_cycles()
            _ = timeouts.cancel(cancelled)
            let end = ccc_cycles()
            pending[victim] = added
            schedule.record(from: start, to: scheduled)
            cancel.record(from: scheduled, to: end)
        }
        for timeout in pending { _ = timeouts.cancel(timeout) }
        // Every deadline already due, over the second before now.
        let fires = CalloutGaps(count: population)
        let due = TimeoutSet(on: loop, handler: fires)
        let now = monotonicNanoseconds()
        for _ in 0..<population { due.schedule(at: Instant(nanoseconds: now - spread.next(below: 1_000_000_000))) }
        loop.run(mode: .default, until: .distantFuture)
        fire = fires.tail(scale: schedule.scale)
    }

    private static func timers(
        _ population: Int, _ operations: Int, _ schedule: inout Tail, _ cancel: inout Tail, _ fire: inout Tail
    ) {
        let loop = RunLoop()
        let far = monotonicNanoseconds() + 3_600_000_000_000
        var spread = DeadlineSpread()
        var pending = (0..<population).map { _ in
            let timer = Timer(
                fireAt: Instant(nanoseconds: far + spread.next(below: 1_000_000_000)), interval: .zero, repeats: false
            ) { _ in }
            loop.add(timer, forMode: .default)
            return timer
        }
        for _ in 0..<operations {
            let deadline = Instant(nanoseconds: far + spread.next(below: 1_000_000_000))
            let victim = Int(spread.next(below: Int64(population)))
            // Made, scheduled and invalidated as a user does: the timer's allocation is in the schedule.
            let cancelled = pending[victim]
            let start = ccc_cycles()
            let added = Timer(fireAt: deadline, interval: .zero, repeats: false) { _ in }
            loop.add(added, forMode: .default)
            let scheduled = ccc_cycles()
            cancelled.invalidate()
            let end = ccc_cycles()
            pending[victim] = added
            schedule.record(from: start, to: scheduled)
            cancel.record(from: scheduled, to: end)
        }
        for timer in pending { timer.invalidate() }
        pending = []
        let fires = CalloutGaps(count: population)
        let now = monotonicNanoseconds()
        for _ in 0..<population {
            let timer = Timer(
                fireAt: Instant(nanoseconds: now - spread.next(below: 1_000_000_000)), interval: .zero, repeats: false
            ) { _ in fires.called() }
            loop.add(timer, forMode: .default)
        }
        loop.run(mode: .default, until: .distantFuture)
        fire = fires.tail(scale: schedule.scale)
    }

    /// A handler for timeouts that never fire (an hour away): it does nothing.
    final class NoTimeouts: TimeoutHandler {
        func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {}
    }

    /// The cycle counter at each callout; the gaps between consecutive ones.
    private final class CalloutGaps: TimeoutHandler {
        private var stamps: [UInt64] = []

        init(count: Int) { stamps.reserveCapacity(count) }

        func called() { stamps.append(ccc_cycles()) }

        func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) { called() }

        func tail(scale: CycleScale) -> Tail {
            var tail = Tail(scale)
            for index in stamps.indices.dropFirst() { tail.record(from: stamps[index - 1], to: stamps[index]) }
            return tail
        }
    }
}

/// Cycles per nanosecond of ``ccc_cycles()``, measured against the monotonic clock over 20 ms.
struct CycleScale {
    let cyclesPerNanosecond: Double

    init() {
        let clockStart = monotonicNanoseconds()
        let cycleStart = ccc_cycles()
        while monotonicNanoseconds() - clockStart < 20_000_000 {}
        let elapsed = monotonicNanoseconds() - clockStart
        cyclesPerNanosecond = Double(ccc_cycles() - cycleStart) / Double(elapsed)
    }
}

/// One operation's durations in nanoseconds, in an HdrHistogram.
struct Tail {
    let scale: CycleScale
    private var histogram = Histogram<UInt64>(
        highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)

    init(_ scale: CycleScale) { self.scale = scale }

    mutating func record(from start: UInt64, to end: UInt64) {
        let nanoseconds = Double(end &- start) / scale.cyclesPerNanosecond
        _ = histogram.record(UInt64(max(nanoseconds.rounded(), 1)))
    }

    var percentiles: TailsResult.Percentiles {
        TailsResult.Percentiles(
            p50: histogram.valueAtPercentile(50), p99: histogram.valueAtPercentile(99),
            p999: histogram.valueAtPercentile(99.9), max: histogram.max, count: histogram.totalCount)
    }
}

struct TailsResult: Codable {
    var peer: String
    var pending: Int
    var operations: Int
    var schedule: Percentiles
    var cancel: Percentiles
    var fire: Percentiles
    /// The median of two cycle-counter readings with nothing between them: what every figure includes.
    var emptyReadingNanoseconds: UInt64

    struct Percentiles: Codable {
        var p50: UInt64
        var p99: UInt64
        var p999: UInt64
        var max: UInt64
        var count: UInt64
    }
}
