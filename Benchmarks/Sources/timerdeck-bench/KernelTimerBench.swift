import Foundation
import Glibc
import RunLoopKit

/// What the loop asks of the kernel for its timers, counted by the loop itself through its metrics
/// (`runloop_timerfd_settime`, `runloop_early_timer_expiries`, `runloop_wakeups`).
enum KernelTimerBench {
    /// Schedule + cancel pairs in steady state, one pair per wake-up: a client thread sends a byte
    /// down a pipe and waits for the answer; the loop, woken by it, schedules a timer 30 s away,
    /// cancels the oldest of the 1,000 pending (so the earliest deadline moves later at every
    /// wake-up) and answers.
    static func steadyPairs(_ kind: TailsBench.Kind, pairs: Int) -> KernelTimerResult {
        let counts = CountingMetrics()
        let loop = RunLoopKit.RunLoop()
        loop.reportMetrics(label: "runloop", factory: counts)
        let scheduler = Scheduler(kind, on: loop)
        var clock = monotonicNanoseconds()
        let ring = 1_000
        for _ in 0..<ring {
            clock += 1_000
            scheduler.schedule(at: clock + 30_000_000_000)
        }
        var request: [Int32] = [0, 0]
        var answer: [Int32] = [0, 0]
        guard pipe(&request) == 0, pipe(&answer) == 0 else { fatalError("pipe: \(errno)") }
        var done = 0
        let source = RunLoopKit.RunLoop.FileDescriptorSource(fileDescriptor: request[0]) {
            var byte: UInt8 = 0
            guard read(request[0], &byte, 1) == 1 else { return }
            clock = max(clock + 1_000, monotonicNanoseconds())
            scheduler.schedule(at: clock + 30_000_000_000)
            scheduler.cancelOldest()
            done += 1
            _ = write(answer[1], &byte, 1)
            if done == pairs { loop.stop() }
        }
        loop.add(source, forMode: .default)
        let (requestEnd, answerEnd) = (request[1], answer[0])
        let client = Thread {
            var byte: UInt8 = 1
            for _ in 0..<pairs {
                _ = write(requestEnd, &byte, 1)
                _ = read(answerEnd, &byte, 1)
            }
        }
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        client.start()
        loop.run(mode: .default, until: .distantFuture)
        let wall = monotonicNanoseconds() - start
        let after = ResourceUsage.now()
        source.invalidate()
        for descriptor in request + answer { close(descriptor) }
        return KernelTimerResult(
            peer: kind.rawValue, workload: "schedule + cancel, one pair per wake-up", pendingTimers: ring,
            operations: 2 * pairs,
            timerfdSettings: counts.total("runloop_timerfd_settime"),
            earlyExpiries: counts.total("runloop_early_timer_expiries"), wakeUps: counts.total("runloop_wakeups"),
            cpuPerOperationNanoseconds: Double(after.cpuNanoseconds - before.cpuNanoseconds) / Double(2 * pairs),
            wallSeconds: Nanoseconds.seconds(wall))
    }

    /// `timers` repeating timers every `interval`, their first fires spread over one interval, each
    /// with `tolerance`, run for `duration`: the loop's wake-ups and timerfd settings, and the CPU per fire.
    static func coalescing(
        _ kind: TailsBench.Kind, timers: Int, interval: Int64, tolerance: Int64, duration: Int64
    ) -> KernelTimerResult {
        let counts = CountingMetrics()
        let loop = RunLoopKit.RunLoop()
        loop.reportMetrics(label: "runloop", factory: counts)
        var spread = DeadlineSpread()
        let start = monotonicNanoseconds()
        let fires = RepeatingFires(interval: interval)
        var kept: [RunLoopKit.Timer] = []
        var set: TimeoutSet?
        switch kind {
        case .timer:
            kept = (0..<timers).map { _ in
                let timer = RunLoopKit.Timer(
                    fireAt: Instant(nanoseconds: start + spread.next(below: interval)),
                    interval: .nanoseconds(interval), repeats: true
                ) { _ in fires.count += 1 }
                timer.tolerance = .nanoseconds(tolerance)
                loop.add(timer, forMode: .default)
                return timer
            }
        case .timeoutSet:
            let timeouts = TimeoutSet(on: loop, tolerance: .nanoseconds(tolerance), handler: fires)
            fires.set = timeouts
            for index in 0..<timers {
                let first = start + spread.next(below: interval)
                fires.deadlines.append(first)
                timeouts.schedule(at: Instant(nanoseconds: first), tag: UInt64(index))
            }
            set = timeouts
        }
        let before = ResourceUsage.now()
        loop.run(mode: .default, until: Instant(nanoseconds: start + duration))
        let after = ResourceUsage.now()
        for timer in kept { timer.invalidate() }
        withExtendedLifetime(set) {}
        return KernelTimerResult(
            peer: kind.rawValue,
            workload: "\(timers) repeating timers every \(Nanoseconds.milliseconds(interval)) ms",
            pendingTimers: timers, operations: fires.count, toleranceNanoseconds: tolerance,
            timerfdSettings: counts.total("runloop_timerfd_settime"),
            earlyExpiries: counts.total("runloop_early_timer_expiries"), wakeUps: counts.total("runloop_wakeups"),
            cpuPerOperationNanoseconds: Double(after.cpuNanoseconds - before.cpuNanoseconds)
                / Double(max(fires.count, 1)),
            wallSeconds: Nanoseconds.seconds(duration))
    }

    /// Schedules timers of one kind and cancels the oldest first.
    private final class Scheduler {
        private let loop: RunLoopKit.RunLoop
        private let timeouts: TimeoutSet?
        private var timers: [RunLoopKit.Timer] = []
        private var handles: [TimeoutSet.Timeout] = []
        private var oldest = 0

        init(_ kind: TailsBench.Kind, on loop: RunLoopKit.RunLoop) {
            self.loop = loop
            timeouts = kind == .timeoutSet ? TimeoutSet(on: loop, handler: TailsBench.NoTimeouts()) : nil
        }

        func schedule(at deadline: Int64) {
            if let timeouts {
                handles.append(timeouts.schedule(at: Instant(nanoseconds: deadline)))
            } else {
                let timer = RunLoopKit.Timer(fireAt: Instant(nanoseconds: deadline), interval: .zero, repeats: false) {
                    _ in
                }
                loop.add(timer, forMode: .default)
                timers.append(timer)
            }
        }

        func cancelOldest() {
            if let timeouts {
                _ = timeouts.cancel(handles[oldest])
            } else {
                timers[oldest].invalidate()
            }
            oldest += 1
        }
    }

    /// Counts fires; for a timeout set, schedules each timeout again one interval on.
    private final class RepeatingFires: TimeoutHandler {
        let interval: Int64
        var count = 0
        var deadlines: [Int64] = []
        weak var set: TimeoutSet?

        init(interval: Int64) { self.interval = interval }

        func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {
            count += 1
            guard let set else { return }
            let index = Int(tag)
            deadlines[index] += interval
            set.schedule(at: Instant(nanoseconds: deadlines[index]), tag: tag)
        }
    }
}

struct KernelTimerResult: Codable {
    var peer: String
    var workload: String
    var pendingTimers: Int
    /// Schedules and cancels, or fires.
    var operations: Int
    var toleranceNanoseconds: Int64 = 0
    var timerfdSettings: Int64
    var earlyExpiries: Int64
    var wakeUps: Int64
    var cpuPerOperationNanoseconds: Double
    var wallSeconds: Double

    var settingsPerThousandOperations: Double { Double(timerfdSettings) * 1_000 / Double(max(operations, 1)) }
}
