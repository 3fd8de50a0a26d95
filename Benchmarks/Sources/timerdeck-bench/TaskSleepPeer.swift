import Dispatch
import Synchronization

/// The standard library: `Task.sleep` on `ContinuousClock`, tasks on the global executor.
enum TaskSleepPeer: Peer {
    static let name = "Task.sleep (global)"

    /// What the sleepers did, from any thread.
    final class Progress: Sendable {
        let fired = Atomic(0)
        let lastCallback = Atomic<Int64>(0)
        let fireTimes = Mutex<[Int64]>([])
        /// Each sleeper's lateness behind its deadline, in nanoseconds, and the latest deadline.
        let lateness = Mutex<(each: [Int64], latestDeadline: Int64)>(([], 0))
        let done = DispatchSemaphore(value: 0)
    }

    static func fire(count: Int, spread: Int64, tolerance: Int64, scatter: Int) -> ThroughputResult {
        let progress = Progress()
        var spreadSource = DeadlineSpread()
        var run = FireRun(count: count)
        let leeway: Duration? = tolerance > 0 ? .nanoseconds(tolerance) : nil
        for _ in 0..<count {
            let offset = spreadSource.next(below: spread)
            Task {
                // Each deadline is taken when its sleep starts, as in the loop's row.
                let due = monotonicNanoseconds() + offset
                let deadline = ContinuousClock.now + .nanoseconds(offset)
                try? await Task.sleep(until: deadline, tolerance: leeway, clock: .continuous)
                let now = monotonicNanoseconds()
                progress.lastCallback.store(now, ordering: .relaxed)
                progress.lateness.withLock {
                    $0.each.append(now - due)
                    $0.latestDeadline = max($0.latestDeadline, due)
                }
                if progress.fired.add(1, ordering: .acquiringAndReleasing).newValue == count { progress.done.signal() }
            }
        }
        run.scheduledAll()
        progress.done.wait()
        var row = run.result(
            peer: name, after: .now(), lastCallback: progress.lastCallback.load(ordering: .relaxed),
            deadlines: spreadSource, fired: progress.fired.load(ordering: .relaxed))
        let (lateness, latestDeadline) = progress.lateness.withLock { $0 }
        row.setLateness(lateness)
        row.lagMilliseconds = Nanoseconds.milliseconds(progress.lastCallback.load(ordering: .relaxed) - latestDeadline)
        return row
    }

    static func cancel(count: Int) -> ThroughputResult {
        let progress = Progress()
        let far = ContinuousClock.now + .seconds(3_600)
        let start = monotonicNanoseconds()
        let tasks = (0..<count).map { _ in
            Task {
                try? await Task.sleep(until: far, clock: .continuous)
                if progress.fired.add(1, ordering: .acquiringAndReleasing).newValue == count { progress.done.signal() }
            }
        }
        let scheduled = monotonicNanoseconds()
        for task in tasks { task.cancel() }
        progress.done.wait()
        return cancelResult(count: count, start: start, scheduled: scheduled, cancelled: monotonicNanoseconds())
    }

    /// A task that sleeps until each grid point in turn, skipping those it is already past.
    static func lateness(interval: Int64, duration: Int64) -> LatenessResult {
        let progress = Progress()
        let start = monotonicNanoseconds()
        let origin = ContinuousClock.now
        Task {
            var slot: Int64 = 1
            while true {
                try? await Task.sleep(until: origin + .nanoseconds(slot * interval), clock: .continuous)
                let now = monotonicNanoseconds()
                progress.fireTimes.withLock { $0.append(now) }
                if now >= start + duration { break }
                slot = max(slot + 1, (now - start) / interval + 1)
            }
            progress.done.signal()
        }
        progress.done.wait()
        return latenessResult(
            interval: interval, duration: duration, start: start, fireTimes: progress.fireTimes.withLock { $0 })
    }

    static func idle(duration: Int64) -> IdleResult {
        let progress = Progress()
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        let origin = ContinuousClock.now
        Task {
            for second in 1...max(duration / Nanoseconds.perSecond, 1) {
                try? await Task.sleep(until: origin + .seconds(second), clock: .continuous)
            }
            progress.done.signal()
        }
        progress.done.wait()
        let seconds = Nanoseconds.seconds(monotonicNanoseconds() - start)
        return idleResult(seconds: seconds, before: before, after: .now())
    }
}
