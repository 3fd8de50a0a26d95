import Dispatch
import Glibc
import RunLoopKit
import Synchronization

/// Job hop latency: another thread hands work to a sleeping loop on the main thread, one hop at a
/// time with a pause between (so the loop is asleep when each arrives): from just before the hand-over
/// to the start of the work on the loop's thread.
enum HopBench {
    static let loopJob = "RunLoopKit job (Task on the loop's task executor)"
    static let mainQueue = "DispatchQueue.main.async, RunLoop.main"

    /// Latencies recorded on the loop's thread, read by the sender when every hop has arrived.
    final class Latencies: Sendable {
        let values = Mutex<[Int64]>([])
        let arrived = DispatchSemaphore(value: 0)

        func record(since start: Int64) {
            let latency = monotonicNanoseconds() - start
            values.withLock { $0.append(latency) }
            arrived.signal()
        }
    }

    /// `count` hops to a run loop's executor from another thread.
    static func loopJobs(count: Int) -> HopResult {
        let loop = RunLoop()
        let handle = loop.handle
        let latencies = Latencies()
        loop.add(RunLoop.Source {}, forMode: .default)
        send(count: count, latencies: latencies, stop: handle.stop) { start in
            Task(executorPreference: handle.taskExecutor) { latencies.record(since: start) }
        }
        loop.run(mode: .default, until: .distantFuture)
        return result(loopJob, latencies)
    }

    /// `count` hops through libdispatch's main queue, drained by `RunLoop.main` (C-M12).
    static func mainQueueBlocks(count: Int) -> HopResult {
        let loop = RunLoop.main
        let handle = loop.handle
        let latencies = Latencies()
        send(count: count, latencies: latencies, stop: handle.stop) { start in
            DispatchQueue.main.async { latencies.record(since: start) }
        }
        loop.run(mode: .default, until: .distantFuture)
        return result(mainQueue, latencies)
    }

    /// Starts the sender on a background queue: a hop every 200 µs after the previous one arrived, then `stop`.
    private static func send(
        count: Int, latencies: Latencies, stop: @escaping @Sendable () -> Void,
        hop: @escaping @Sendable (Int64) -> Void
    ) {
        DispatchQueue.global().async {
            for _ in 0..<count {
                usleep(200)
                hop(monotonicNanoseconds())
                latencies.arrived.wait()
            }
            stop()
        }
    }

    private static func result(_ peer: String, _ latencies: Latencies) -> HopResult {
        let values = latencies.values.withLock { $0 }
        // The first tenth is a warm-up (first calls, page faults), as for lateness.
        let distribution = Distribution(Array(values.dropFirst(values.count / 10)))
        return HopResult(
            peer: peer, hops: values.count, p50Microseconds: Double(distribution.percentile(0.5)) / 1_000,
            p99Microseconds: Double(distribution.percentile(0.99)) / 1_000,
            maxMicroseconds: Double(distribution.max) / 1_000)
    }
}
