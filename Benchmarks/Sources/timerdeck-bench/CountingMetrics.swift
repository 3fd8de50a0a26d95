import CoreMetrics
import Synchronization

/// A swift-metrics backend that keeps each counter's total and drops everything else: what the
/// benchmark reads of a loop's own counts (``KernelTimerBench``).
final class CountingMetrics: MetricsFactory {
    private let counters = Mutex<[String: [TotalCounter]]>([:])

    /// The sum of every counter named `label`, over all its dimensions.
    func total(_ label: String) -> Int64 {
        counters.withLock { $0[label, default: []].reduce(0) { $0 + $1.value.load(ordering: .relaxed) } }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        let counter = TotalCounter()
        counters.withLock { $0[label, default: []].append(counter) }
        return counter
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        Ignored()
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler { Ignored() }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}

    private final class TotalCounter: CounterHandler {
        let value = Atomic<Int64>(0)

        func increment(by amount: Int64) { value.add(amount, ordering: .relaxed) }
        func reset() { value.store(0, ordering: .relaxed) }
    }

    private final class Ignored: RecorderHandler, TimerHandler {
        func record(_ value: Int64) {}
        func record(_ value: Double) {}
        func recordNanoseconds(_ duration: Int64) {}
    }
}
