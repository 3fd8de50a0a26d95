import Foundation
import RunLoopKit
import TestSupport
import Testing
import Uploads

/// Remote write into a real time-series database: Debian's `prometheus` on loopback, read back
/// through its query API. Every sample of a scene is checked by seq, value and the time it was taken.
@Suite(.serialized, .tags(.process, .slow)) struct PrometheusSinkTests {
    /// The shipped route: sample `seq` is its point `(seq - 1) % count`.
    let route = try! RouteReplay(contentsOf: URL(fileURLWithPath: RouteReplayTests.resourcePath)).points
    /// Where the virtual wall clock starts: 2026-01-01T00:00:00Z.
    static let virtualStart: Int64 = 1_767_225_600_000

    /// A remote-write sink for `endpoint` labelling series with `instance`.
    static func sink(_ endpoint: String, instance: String) throws -> HTTPSink {
        try HTTPSink(
            endpoint: endpoint, timeout: .seconds(30), format: .remoteWrite(try RemoteWrite(instance: instance)))
    }

    /// Stores a sample three hours after the virtual start: the head moves on, and without an
    /// out-of-order window a scene from the start is out of bounds.
    static func storeSampleThreeHoursLater(in prometheus: PrometheusProcess) throws {
        let fields = SampleFields.hostMetrics(load1: 1, load5: 1, load15: 1, memoryTotal: 1, memoryAvailable: 1)
        let sample = Sample(takenAtMilliseconds: virtualStart + 3 * 3_600_000, fields: fields)
        let batch = Batch(id: UUID(), createdAt: Date(), samples: [StoredSample(seq: 1, sample: sample)])
        let delivery = deliver(batch, to: try sink(prometheus.endpoint, instance: "ahead"))
        #expect(delivery?.ack != nil, "\(String(describing: delivery?.error))")
    }

    /// Checks that the database holds exactly samples `1...count` of `instance`, one every 5 s from
    /// the virtual start: the seq, latitude, longitude and elevation of each, at the time it was taken.
    func expectEverySample(in prometheus: PrometheusProcess, instance: String, count: Int) throws {
        let seqs = Array(1...count)
        let end = Date(timeIntervalSince1970: Double(Self.virtualStart) / 1000 + Double(count * 5 + 1))
        let stored = try prometheus.samples("{instance=\"\(instance)\",job=\"timerdeck\"}", window: "1d", end: end)
        func expected(_ value: (Int) -> Double?) -> [PrometheusProcess.Point] {
            seqs.compactMap { seq in
                value(seq).map {
                    PrometheusProcess.Point(milliseconds: Self.virtualStart + Int64(seq) * 5_000, value: $0)
                }
            }
        }
        let point = { (seq: Int) in route[(seq - 1) % route.count] }
        #expect(stored["timerdeck_sample_seq"] == expected { Double($0) })
        #expect(stored["timerdeck_latitude_degrees"] == expected { point($0).latitude })
        #expect(stored["timerdeck_longitude_degrees"] == expected { point($0).longitude })
        #expect(stored["timerdeck_elevation_meters"] ?? [] == expected { point($0).elevation })
        #expect(stored.count == 4, "series: \(stored.keys.sorted())")
    }

    @Test("A 10-minute scene on the virtual clock: every sample is in Prometheus with its value and time")
    func sceneDeliversEverySample() throws {
        let prometheus = try PrometheusProcess()
        let scene = try UploadPipelineTests.Scene(sink: { _ in try Self.sink(prometheus.endpoint, instance: "scene") })
        scene.pipeline.start()
        scene.run(untilSecond: 600)
        #expect(scene.pipeline.flush() == 0)
        #expect(scene.pipeline.status.lastAttempt?.statusCode == 204)
        try expectEverySample(in: prometheus, instance: "scene", count: 120)
    }

    @Test("Through a proxy answering 500 and 429 and dropping connections, every point arrives exactly once")
    func faultsThenEveryPointOnce() throws {
        let prometheus = try PrometheusProcess()
        // First batch: dropped unanswered, then 500 twice, then stored but its answer dropped (resent).
        let proxy = try CollectorProcess([
            "--forward", prometheus.endpoint, "--drop-first", "1", "--fail-first", "2", "--drop-after-forward", "1",
        ])
        var settings = UploadPipeline.Settings()
        settings.uploadInterval = .seconds(60)
        settings.retry = RetryPolicy(base: .seconds(5), factor: 2, cap: .seconds(60), jitter: 0.5)
        let scene = try UploadPipelineTests.Scene(
            sink: { _ in try Self.sink(proxy.endpoint, instance: "faults") }, settings: settings)
        scene.pipeline.start()
        scene.run(untilSecond: 300)
        try proxy.control(["fail_first": 2, "fail_status": 429, "retry_after": "7"])
        scene.run(untilSecond: 600)
        #expect(scene.pipeline.flush() == 0)

        let received = try proxy.received()
        #expect(received.dropped == 2)
        // 500 twice, 429 twice, and the resend of the batch whose answer was dropped: Prometheus
        // refuses it as out of order, which for a resend means it is stored already.
        #expect(received.rejected == 5)
        #expect(scene.pipeline.status.refused == nil)
        try expectEverySample(in: prometheus, instance: "faults", count: 120)
    }

    @Test(
        "Samples older than Prometheus accepts are refused: the status counts them and says why, later batches still go"
    )
    func samplesTooOldAreRefusedAndCounted() throws {
        let prometheus = try PrometheusProcess()
        try Self.storeSampleThreeHoursLater(in: prometheus)

        let scene = try UploadPipelineTests.Scene(sink: { _ in try Self.sink(prometheus.endpoint, instance: "old") })
        scene.pipeline.start()
        scene.run(untilSecond: 600)
        #expect(scene.pipeline.flush() == 120, "refused batches stay in the outbox")
        let refused = try #require(scene.pipeline.status.refused)
        #expect(refused.count == 120)
        #expect(refused.error == .rejected(status: 400, message: "out of bounds"))
        #expect(refused.error.refusesOldSamples)
        #expect(
            refused.error.description
                == "The server rejected the batch with 400 Bad Request: out of bounds. It stays in the outbox. "
                + "The samples are older than the database accepts; see \"Where the samples go\" in the README.")
    }

    @Test("With an out-of-order window (the README's advice) the same old samples are stored")
    func outOfOrderWindowAcceptsOldSamples() throws {
        let prometheus = try PrometheusProcess(outOfOrderWindow: "1d")
        try Self.storeSampleThreeHoursLater(in: prometheus)
        let scene = try UploadPipelineTests.Scene(sink: { _ in try Self.sink(prometheus.endpoint, instance: "old") })
        scene.pipeline.start()
        scene.run(untilSecond: 600)
        #expect(scene.pipeline.flush() == 0)
        #expect(scene.pipeline.status.refused == nil)
        try expectEverySample(in: prometheus, instance: "old", count: 120)
    }
}
