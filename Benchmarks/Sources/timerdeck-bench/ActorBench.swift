import Dispatch
import RunLoopKit

/// An actor's method called many times from a task: the actor and the task on a run loop, beside
/// the same actor and task on Swift's default executors.
enum ActorBench {
    static let onLoop = "actor on a RunLoopKit loop, task on the loop"
    static let fromLoopActor = "actor on a RunLoopKit loop, caller an actor on the same loop"
    static let onDefault = "default actor, task on the global executor"

    /// Counts calls on a run loop's thread.
    actor LoopCounter {
        nonisolated let unownedExecutor: UnownedSerialExecutor
        private(set) var count = 0

        init(executor: any SerialExecutor) {
            unownedExecutor = executor.asUnownedSerialExecutor()
        }

        func increment() { count += 1 }
    }

    /// Calls a counter from an actor of the same loop: both isolated to one executor, no hop.
    actor LoopCaller {
        nonisolated let unownedExecutor: UnownedSerialExecutor

        init(executor: any SerialExecutor) {
            unownedExecutor = executor.asUnownedSerialExecutor()
        }

        func call(_ counter: LoopCounter, times: Int) async {
            for _ in 0..<times { await counter.increment() }
        }
    }

    /// Counts calls on Swift's default actor executor.
    actor DefaultCounter {
        private(set) var count = 0

        func increment() { count += 1 }
    }

    /// The counter on a loop, called from a task on the loop (`fromActor`: from an actor on it).
    static func loop(calls: Int, fromActor: Bool) -> ActorCallsResult {
        let loop = RunLoop()
        let handle = loop.handle
        let counter = LoopCounter(executor: handle.executor)
        let caller = LoopCaller(executor: handle.executor)
        loop.add(RunLoop.Source {}, forMode: .default)
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        Task(executorPreference: handle.taskExecutor) {
            if fromActor {
                await caller.call(counter, times: calls)
            } else {
                for _ in 0..<calls { await counter.increment() }
            }
            handle.stop()
        }
        loop.run(mode: .default, until: .distantFuture)
        return result(fromActor ? fromLoopActor : onLoop, calls: calls, start: start, before: before)
    }

    static func defaultExecutor(calls: Int) -> ActorCallsResult {
        let counter = DefaultCounter()
        let done = DispatchSemaphore(value: 0)
        let before = ResourceUsage.now()
        let start = monotonicNanoseconds()
        Task {
            for _ in 0..<calls { await counter.increment() }
            done.signal()
        }
        done.wait()
        return result(onDefault, calls: calls, start: start, before: before)
    }

    private static func result(_ peer: String, calls: Int, start: Int64, before: ResourceUsage) -> ActorCallsResult {
        let seconds = Nanoseconds.seconds(monotonicNanoseconds() - start)
        let after = ResourceUsage.now()
        return ActorCallsResult(
            peer: peer, calls: calls, seconds: seconds, callsPerSecond: Double(calls) / seconds,
            cpuMilliseconds: Nanoseconds.milliseconds(after.cpuNanoseconds - before.cpuNanoseconds))
    }
}
