import Foundation
import RunLoopKit
import TestSupport
import Testing
import Uploads

extension LoopbackServerSuites {
    /// Remote write into a real time-series database: Debian's `prometheus` on loopback, read back
    /// through its query API. Every sample of a scene is checked by seq, value and the time it was taken.
    @Suite(.serialized, .tags(.process, .slow)) struct PrometheusSinkTests {
        /// The shipped route: sample `seq` is its point `(seq - 1) % count`.
        let route: [TrackPoint]

        init() throws {
            route = try RouteReplay(contentsOf: URL(fileURLWithPath: RouteReplayTests.resourcePath)).points
        }
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

        /// Samples `1...count` as a route scene on the virtual clock takes them: one every 5 s from
        /// `start` (milliseconds since 1970; the virtual start by default), sample `seq` at the
        /// route's point `(seq - 1) % count`.
        func routeScene(count: Int, from start: Int64 = Self.virtualStart) -> [StoredSample] {
            (1...count).map { seq in
                let point = route[(seq - 1) % route.count]
                let fields = SampleFields.position(
                    latitude: point.latitude, longitude: point.longitude, elevation: point.elevation)
                return StoredSample(
                    seq: Int64(seq),
                    sample: Sample(takenAtMilliseconds: start + Int64(seq) * 5_000, fields: fields))
            }
        }

        /// Checks that the database holds exactly `samples` for `instance`: every series of every sample
        /// (its seq, each field) once, with its value, at the time the sample was taken.
        func expectStored(_ samples: [StoredSample], in prometheus: PrometheusProcess, instance: String) throws {
            let last = try #require(samples.last).sample.takenAtMilliseconds
            let end = Date(timeIntervalSince1970: Double(last + 1) / 1000)
            let stored = try prometheus.samples("{instance=\"\(instance)\",job=\"timerdeck\"}", window: "1d", end: end)
            var expected: [String: [PrometheusProcess.Point]] = [:]
            for stored in samples {
                let time = stored.sample.takenAtMilliseconds
                let seq = (name: "timerdeck_sample_seq", labels: [String: String](), value: Double(stored.seq))
                for (name, _, value) in [seq] + stored.sample.fields.series {
                    expected[name, default: []].append(PrometheusProcess.Point(milliseconds: time, value: value))
                }
            }
            #expect(stored.keys.sorted() == expected.keys.sorted())
            for (name, points) in expected { #expect(stored[name] == points, "\(name)") }
        }

        @Test("A 10-minute scene on the virtual clock: every sample is in Prometheus with its value and time")
        func sceneDeliversEverySample() throws {
            let prometheus = try PrometheusProcess()
            let scene = try UploadPipelineTests.Scene(sink: { _ in
                try Self.sink(prometheus.endpoint, instance: "scene")
            })
            scene.pipeline.start()
            scene.run(untilSecond: 600)
            #expect(scene.pipeline.flush() == 0)
            #expect(scene.pipeline.status.lastAttempt?.statusCode == 204)
            try expectStored(routeScene(count: 120), in: prometheus, instance: "scene")
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
            try expectStored(routeScene(count: 120), in: prometheus, instance: "faults")
        }

        @Test(
            "Samples older than Prometheus accepts are refused: the status counts them and says why, later batches still go"
        )
        func samplesTooOldAreRefusedAndCounted() throws {
            let prometheus = try PrometheusProcess()
            try Self.storeSampleThreeHoursLater(in: prometheus)

            let scene = try UploadPipelineTests.Scene(sink: { _ in try Self.sink(prometheus.endpoint, instance: "old") }
            )
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
                    + "The samples are older than the database accepts; Prometheus takes them with an out-of-order "
                    + "window (out_of_order_time_window in prometheus.yml).")
        }

        @Test("With an out-of-order window (the advice of the refusal's message) the same old samples are stored")
        func outOfOrderWindowAcceptsOldSamples() throws {
            let prometheus = try PrometheusProcess(outOfOrderWindow: "1d")
            try Self.storeSampleThreeHoursLater(in: prometheus)
            let scene = try UploadPipelineTests.Scene(sink: { _ in try Self.sink(prometheus.endpoint, instance: "old") }
            )
            scene.pipeline.start()
            scene.run(untilSecond: 600)
            #expect(scene.pipeline.flush() == 0)
            #expect(scene.pipeline.status.refused == nil)
            try expectStored(routeScene(count: 120), in: prometheus, instance: "old")
        }

        @Test("A live run on the real clock: every sample is in Prometheus at the wall time it was taken")
        func liveRunDeliversEverySample() throws {
            let prometheus = try PrometheusProcess()
            let loop = RunKitLoop()
            let sink = RecordingSink(try Self.sink(prometheus.endpoint, instance: "live"))
            var settings = UploadPipeline.Settings()
            settings.sampleInterval = .milliseconds(100)
            settings.uploadInterval = .milliseconds(500)
            let scratch = try ScratchDirectory()
            let pipeline = UploadPipeline(
                loop: loop, outbox: try Outbox(url: scratch.path("outbox.sqlite")),
                sampler: try RouteReplay(contentsOf: URL(fileURLWithPath: RouteReplayTests.resourcePath)), sink: sink,
                settings: settings)
            pipeline.start()
            loop.run(mode: .default, until: loop.now + .seconds(2))
            #expect(pipeline.flush() == 0)
            let samples = sink.samples
            #expect(samples.map(\.seq) == Array(1...Int64(samples.count)))
            #expect(samples.count >= 10, "the run took \(samples.count) samples in 2 s")
            try expectStored(samples, in: prometheus, instance: "live")
        }

        @Test("The loop's health: a 10-minute scene's timer lateness is in Prometheus by instance and timer name")
        func loopLatenessByTimerName() throws {
            let prometheus = try PrometheusProcess()
            let health = LoopHealthSampler()
            let scene = try UploadPipelineTests.Scene(
                sink: { _ in try Self.sink(prometheus.endpoint, instance: "loop") }, sampler: health)
            scene.loop.reportMetrics(factory: health)
            let tick = Timer(fireAt: Instant(nanoseconds: 1_000_000_000), interval: .seconds(1), repeats: true) { _ in }
            scene.loop.setMetricsName("deck.tick", for: tick)
            scene.loop.add(tick, forMode: .default)
            // At 100.2 s a callout keeps the thread 2.5 s: the tick due at 101 s fires 1.7 s late.
            let busy = Timer(fireAt: Instant(nanoseconds: 100_200_000_000), interval: .zero, repeats: false) { _ in
                scene.clock.busy(.milliseconds(2_500))
            }
            scene.loop.add(busy, forMode: .default)
            scene.pipeline.start()
            scene.run(untilSecond: 600)
            #expect(scene.pipeline.flush() == 0)

            let end = Date(timeIntervalSince1970: Double(Self.virtualStart + 600_001) / 1000)
            let lateness = try prometheus.samples(
                "runloop_timer_lateness_max_seconds{instance=\"loop\",timer=\"deck.tick\"}", window: "1d", end: end)
            // One sample every 5 s; the window that holds the late fire reads 1.7 s, every other 0.
            let expected = (1...120).map { index in
                PrometheusProcess.Point(
                    milliseconds: Self.virtualStart + Int64(index) * 5_000, value: index == 21 ? 1.7 : 0)
            }
            #expect(lateness["runloop_timer_lateness_max_seconds"] == expected)
            let sampling = try prometheus.samples(
                "runloop_timer_fires_total{instance=\"loop\",timer=\"uploads.sample\"}", window: "1d", end: end)
            #expect(sampling["runloop_timer_fires_total"]?.last?.value == 120, "a fire counts as its callout begins")
        }

        @Test(
            "timerdeck itself: a headless 11-minute run with --upload-url prometheus+http:// delivers every sample",
            .enabled(if: TimerDeckProcess.isBuilt, "timerdeck is not built"))
        func timerdeckProcessDeliversEverySample() throws {
            let prometheus = try PrometheusProcess()
            let scratch = try ScratchDirectory()
            let script = scratch.path("run.txt")
            try "wait 11m\nquit\n".write(to: script, atomically: true, encoding: .utf8)
            let config = scratch.path("timerdeck.toml")
            try "[uploads]\ninstance = \"process\"\nlabels = \"region=eu\"\n".write(
                to: config, atomically: true, encoding: .utf8)
            let url = "prometheus+http://127.0.0.1:\(prometheus.port)/api/v1/write"
            let before = Date()
            let outcome = try TimerDeckProcess(
                script: script.path,
                ["--config", config.path, "--outbox", scratch.path("outbox.sqlite").path, "--upload-url", url]
            ).finish()
            #expect(outcome.status == 0, "\(outcome.standardError)")
            // Taken from the real time of the start, which a database holding current data accepts.
            let last = try #require(try Outbox(url: scratch.path("outbox.sqlite")).counters().lastSample)
            let start = last.sample.takenAtMilliseconds - 132 * 5_000
            #expect(
                start >= Int64(before.timeIntervalSince1970 * 1_000) - 1
                    && start <= Int64(Date().timeIntervalSince1970 * 1_000))
            try expectStored(routeScene(count: 132, from: start), in: prometheus, instance: "process")
            let regions = try prometheus.samples(
                "{region=\"eu\"}", window: "1d",
                end: Date(timeIntervalSince1970: Double(last.sample.takenAtMilliseconds + 1) / 1_000))
            #expect(regions["timerdeck_sample_seq"]?.count == 132)
        }
    }
}
