import Foundation
import RunLoopKit
import TestSupport
import Testing
import Uploads

/// The samples the outbox's size cap drops are counted in the loop's health metrics.
@Suite struct DroppedSamplesMetricTests {
    /// A server that is always down: every batch stays pending, so the outbox fills.
    final class DownSink: BatchSink {
        var destination: String { "a server that is down" }
        func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
            completion(.failure(.serverUnavailable(status: 503, retryAfter: nil)))
        }
    }

    @Test(
        "dropped_samples_total in the loop's health is the outbox's count of dropped samples"
    )
    func droppedSamplesAreInTheLoopHealth() throws {
        let scratch = try ScratchDirectory()
        let clock = VirtualClock()
        let loop = RunLoop(timeSource: .virtual(clock))
        let outbox = try Outbox(url: scratch.path("outbox.sqlite"), sizeCap: 65_536)
        let health = LoopHealthSampler()
        loop.reportMetrics(factory: health)
        var settings = UploadPipeline.Settings()
        settings.uploadInterval = .seconds(60)
        let pipeline = UploadPipeline(
            loop: loop, outbox: outbox, sampler: health, sink: DownSink(), settings: settings, metrics: health)
        pipeline.start()
        loop.run(mode: .default, until: .zero + .seconds(3_600))
        var settled = false
        pipeline.whenSettled { settled = true }
        while !settled { loop.run(mode: .default, until: loop.now) }
        defer { loop.stopReportingMetrics() }

        let counters = try outbox.counters()
        #expect(counters.droppedSamples > 0)
        #expect(pipeline.status.counters?.droppedSamples == counters.droppedSamples)
        let sample = try health.sample(at: Date())
        guard case .loop(let readings) = sample.fields else {
            Issue.record("not a loop sample: \(sample.fields)")
            return
        }
        let dropped = readings.first { $0.name == "dropped_samples_total" }?.value
        #expect(dropped == Double(counters.droppedSamples))
        #expect(counters.pendingSamples + counters.droppedSamples == 720)
    }
}
