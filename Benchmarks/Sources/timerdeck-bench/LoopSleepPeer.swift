import RunLoopKit

/// RunLoopKit in async code: tasks on a loop's task executor that sleep on the loop's clock
/// (`RunLoop.Handle.sleep`, one-shot timers in the loop's heap, rule C-X2).
enum LoopSleepPeer: Peer {
    static let name = "RunLoopKit sleep"

    /// What the sleepers did; only touched on the loop's thread.
    final class Progress {
        var fired = 0
        var lastCallback: Int64 = 0
        var fireTimes: [Int64] = []
        /// Each sleeper's lateness behind its deadline, in nanoseconds.
        var lateness: [Int64] = []
        /// The latest deadline a sleeper had.
        var latestDeadline: Int64 = 0
    }

    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        let loop = RunLoop()
        let handle = loop.handle
        let progress = Progress()
        let bound = LoopBound(progress, on: loop)
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count)
        let leeway: Duration? = tolerance > 0 ? .nanoseconds(tolerance) : nil
        progress.lateness.reserveCapacity(count)
        for _ in 0..<count {
            let offset = spreadSource.next(below: spread)
            Task(executorPreference: handle.taskExecutor) {
                // Each deadline is taken when its sleep starts, as in Task.sleep's row: the
                // lateness is the resumption's, whichever executor started the task later.
                let deadline = Instant(nanoseconds: monotonicNanoseconds() + offset)
                try? await handle.sleep(until: deadline, tolerance: leeway)
                let now = monotonicNanoseconds()
                bound.value.fired += 1
                bound.value.lastCallback = now
                bound.value.lateness.append(now - deadline.nanoseconds)
                bound.value.latestDeadline = max(bound.value.latestDeadline, deadline.nanoseconds)
            }
        }
        run.scheduledAll()
        loop.run(mode: .default, until: .distantFuture)
        let after = withExtendedLifetime(loop) { ResourceUsage.now() }
        var row = run.result(
            peer: name, after: after, lastCallback: progress.lastCallback, deadlines: spreadSource,
            fired: progress.fired)
        row.setLateness(progress.lateness)
        row.lagMilliseconds = Nanoseconds.milliseconds(progress.lastCallback - progress.latestDeadline)
        row.note = "schedule = Task creation; each sleep joins the heap when its task first runs, due from then"
        return row
    }

    static func cancel(count: Int) -> ThroughputResult {
        let loop = RunLoop()
        let handle = loop.handle
        let far = Instant(nanoseconds: monotonicNanoseconds() + 3_600_000_000_000)
        let start = monotonicNanoseconds()
        let tasks = (0..<count).map { _ in
            Task(executorPreference: handle.taskExecutor) { try? await handle.sleep(until: far) }
        }
        loop.run(mode: .default, until: .zero)  // every task starts and its sleep joins the heap
        let scheduled = monotonicNanoseconds()
        for task in tasks { task.cancel() }
        loop.run(mode: .default, until: .distantFuture)  // the cancelled tasks finish
        return cancelResult(count: count, start: start, scheduled: scheduled, cancelled: monotonicNanoseconds())
    }

    /// A task that sleeps until each grid point `start + k × interval` in turn, skipping the points
    /// it is already past (as a repeating timer does, C-T6).
    static func lateness(interval: Int64, duration: Int64) -> LatenessResult {
        let loop = RunLoop()
        let handle = loop.handle
        let progress = Progress()
        progress.fireTimes.reserveCapacity(Int(duration / interval) + 16)
        let bound = LoopBound(progress, on: loop)
        let start = monotonicNanoseconds()
        Task(executorPreference: handle.taskExecutor) {
            var slot: Int64 = 1
            while true {
                try? await handle.sleep(until: Instant(nanoseconds: start + slot * interval))
                let now = monotonicNanoseconds()
                bound.value.fireTimes.append(now)
                if now >= start + duration { return }
                slot = max(slot + 1, (now - start) / interval + 1)
            }
        }
        loop.run(mode: .default, until: .distantFuture)
        return latenessResult(interval: interval, duration: duration, start: start, fireTimes: progress.fireTimes)
    }

    static func idle(duration: Int64) -> IdleResult {
        let loop = RunLoop()
        let handle = loop.handle
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        Task(executorPreference: handle.taskExecutor) {
            for second in 1...max(duration / Nanoseconds.perSecond, 1) {
                try? await handle.sleep(until: Instant(nanoseconds: start + second * Nanoseconds.perSecond))
            }
        }
        loop.run(mode: .default, until: .distantFuture)
        let seconds = Nanoseconds.seconds(monotonicNanoseconds() - start)
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
