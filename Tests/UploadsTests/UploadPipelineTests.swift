import Foundation
import RunLoopKit
import TestSupport
import Testing
import TimeUnits
import Uploads

/// The S2 pipeline on a virtual clock, against real sinks: a directory and the loopback collector.
/// Minutes of virtual time run in milliseconds; outbox writes and deliveries are real I/O on other
/// threads, which the virtual clock waits for (external work).
@Suite(.serialized) struct UploadPipelineTests {
    /// A pipeline on a fresh virtual-clock loop, its outbox in a scratch directory, sampling the
    /// shipped route unless given another sampler.
    final class Scene {
        let scratch: ScratchDirectory
        let clock = VirtualClock()
        let loop: RunKitLoop
        let outbox: Outbox
        let pipeline: UploadPipeline
        /// (job, virtual seconds, mode) of every fire.
        private(set) var fires: [(job: UploadPipeline.Job, second: Int64, mode: RunKitLoop.Mode?)] = []

        init(
            sink: (ScratchDirectory) throws -> any BatchSink, settings: UploadPipeline.Settings = .init(),
            outboxURL: URL? = nil, sampler: (any Sampler)? = nil
        ) throws {
            scratch = try ScratchDirectory()
            loop = RunKitLoop(timeSource: .virtual(clock))
            loop.addCommonMode(.tracking)
            outbox = try Outbox(url: outboxURL ?? scratch.path("outbox.sqlite"))
            let route = try RouteReplay(contentsOf: URL(fileURLWithPath: RouteReplayTests.resourcePath))
            pipeline = UploadPipeline(
                loop: loop, outbox: outbox, sampler: sampler ?? route, sink: try sink(scratch),
                settings: settings, random: FixedRandom.zero)
            pipeline.onFire = { [unowned self] job, fire in
                fires.append((job, fire.time.nanoseconds / Nanoseconds.perSecond, fire.mode))
            }
        }

        func seconds(of job: UploadPipeline.Job) -> [Int64] {
            fires.filter { $0.job == job }.map(\.second)
        }

        func run(untilSecond second: Int64) {
            loop.run(mode: .default, until: Instant(nanoseconds: second * Nanoseconds.perSecond))
        }

        func storedSeqs() throws -> [Int64] {
            let counters = try outbox.counters()
            return Array(1...(counters.lastSample?.seq ?? 0))
        }
    }

    @Test("S2, M3: common-mode jobs keep going through a tracking session from 100 s to 120 s")
    func trackingDoesNotPauseCommonModeJobs() throws {
        let scene = try Scene(sink: { DirectorySink(directory: $0.path("uploads")) })
        scene.pipeline.start()
        let tracking = Timer(fireAt: Instant(nanoseconds: 100_000_000_000), interval: .zero, repeats: false) { _ in
            scene.loop.run(mode: .tracking, until: Instant(nanoseconds: 120_000_000_000))
        }
        scene.loop.add(tracking, forMode: .default)
        scene.run(untilSecond: 301)

        #expect(scene.seconds(of: .sample) == Array(stride(from: 5, through: 300, by: 5)))
        let duringTracking = scene.fires.filter { $0.job == .sample && $0.mode == .tracking }.map(\.second)
        // The sample at 100 s fires inside or before the tracking run, the one at 120 s inside or after it:
        // equal fire dates fire in the order the timers were last scheduled (CF), not by kind.
        #expect(Set([105, 110, 115]).isSubset(of: duringTracking))
        #expect(duringTracking.allSatisfy { (100...120).contains($0) })
        #expect(scene.seconds(of: .upload) == [300])

        let files = try FileManager.default.contentsOfDirectory(atPath: scene.scratch.path("uploads").path)
        #expect(files.count == 1)
        let data = try Data(contentsOf: scene.scratch.path("uploads/\(try #require(files.first))"))
        let payload = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let samples = try #require(payload?["samples"] as? [[String: Any]])
        #expect(samples.count == 60)
        #expect(samples.first?["taken_at"] as? String == "2026-01-01T00:00:05.000Z")
        #expect(samples.last?["taken_at"] as? String == "2026-01-01T00:05:00.000Z")
        #expect(samples.compactMap { $0["seq"] as? Int64 } == Array(1...60))
        #expect(try scene.outbox.counters().deliveredSamples == 60)
    }

    @Test("A sample crosses to the outbox's thread and back once; a delivered batch three times (cut, send, record)")
    func threadCrossingsPerSampleAndBatch() throws {
        let scene = try Scene(sink: { DirectorySink(directory: $0.path("uploads")) })
        scene.pipeline.start()
        scene.run(untilSecond: 601)
        let samples = scene.seconds(of: .sample).count
        let batches = scene.seconds(of: .upload).count
        #expect((samples, batches) == (120, 2))
        #expect(try scene.outbox.counters().deliveredSamples == 120)
        // The start's lookup, then there and back per sample and three times per batch: the batch
        // just cut goes as it is, and each write brings back the totals and the next batch.
        #expect(scene.pipeline.threadCrossings == 2 + 2 * samples + 6 * batches)
        #expect(scene.pipeline.status.counters?.pendingSamples == 0, "the last write's totals, without a query")
    }

    @Test("The jobs by name: paused keeps its time left, moved to the default mode waits out tracking, run by hand")
    func jobsAreDrivenByName() throws {
        let scene = try Scene(sink: { DirectorySink(directory: $0.path("uploads")) })
        scene.pipeline.start()
        scene.run(untilSecond: 12)
        scene.pipeline.pause(.sample)
        #expect(scene.pipeline.nextRun(of: .sample) == nil)
        scene.run(untilSecond: 30)
        scene.pipeline.resume(.sample)  // 3 s were left at 12 s
        scene.run(untilSecond: 34)
        scene.pipeline.move(.sample, to: .default)
        #expect(scene.pipeline.mode(of: .sample) == .default)
        let tracking = Timer(fireAt: Instant(nanoseconds: 35_000_000_000), interval: .zero, repeats: false) { _ in
            scene.loop.run(mode: .tracking, until: Instant(nanoseconds: 50_000_000_000))
        }
        scene.loop.add(tracking, forMode: .default)
        scene.run(untilSecond: 52)
        scene.pipeline.runNow(.upload)
        scene.run(untilSecond: 53)
        // 38, 43 and 48 fall in the tracking run: the late sample runs once at 50 and the grid goes on (C-T6).
        #expect(scene.seconds(of: .sample) == [5, 10, 33, 50, 53])
        #expect(scene.seconds(of: .upload) == [52])
        #expect(try scene.outbox.counters().deliveredSamples == 4)
    }

    @Test("S2: a server answering 500s, then recovering, gets every sample exactly once")
    func serverErrorsThenRecovery() throws {
        let collector = try CollectorProcess(["--fail-first", "3"])
        var settings = UploadPipeline.Settings()
        settings.uploadInterval = .seconds(60)
        settings.retry = RetryPolicy(base: .seconds(5), factor: 2, cap: .seconds(60), jitter: 0.5)
        let scene = try Scene(
            sink: { _ in try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30)) },
            settings: settings)
        scene.pipeline.start()
        scene.run(untilSecond: 600)
        #expect(scene.pipeline.flush() == 0)

        let received = try collector.received()
        #expect(received.rejected == 3)
        #expect(received.duplicates == 0)
        #expect(received.seqs == (try scene.storedSeqs()))
        #expect(received.seqs.count == 120)
        #expect(try scene.outbox.counters().pendingSamples == 0)
    }

    @Test("Retry-After from the server decides when the batch goes again")
    func retryAfterIsHonoured() throws {
        let collector = try CollectorProcess(["--fail-first", "1", "--fail-status", "503", "--retry-after", "42"])
        let scene = try Scene(sink: { _ in try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30)) })
        scene.pipeline.start()
        scene.run(untilSecond: 301)
        #expect(scene.pipeline.status.retryAt == Instant(nanoseconds: 342_000_000_000))
        #expect(try collector.received().requests == 1)
        scene.run(untilSecond: 341)
        #expect(try collector.received().requests == 1)
        scene.run(untilSecond: 343)
        let received = try collector.received()
        #expect(received.requests == 2)
        #expect(received.seqs == Array(1...60))
        #expect(scene.pipeline.status.retryAt == nil)
    }

    @Test("An upload run by hand during a retry's backoff sends at once instead of waiting for the retry")
    func runNowDuringBackoffSends() throws {
        let collector = try CollectorProcess(["--fail-first", "1", "--fail-status", "503", "--retry-after", "42"])
        let scene = try Scene(sink: { _ in try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30)) })
        scene.pipeline.start()
        scene.run(untilSecond: 301)
        #expect(scene.pipeline.status.retryAt == Instant(nanoseconds: 342_000_000_000))
        scene.pipeline.runNow(.upload)
        scene.run(untilSecond: 302)
        let received = try collector.received()
        #expect(received.requests == 2)
        #expect(received.seqs == Array(1...60))
        #expect(scene.pipeline.status.retryAt == nil)
    }

    @Test("A slow server: the request times out, is retried, and the batch is stored once")
    func slowServerTimesOutAndIsRetried() throws {
        let collector = try CollectorProcess(["--delay", "1.5"])
        var settings = UploadPipeline.Settings()
        settings.uploadInterval = .seconds(60)
        var sawTimeout = false
        let scene = try Scene(
            sink: { _ in try HTTPSink(endpoint: collector.endpoint, timeout: .milliseconds(300)) },
            settings: settings)
        scene.pipeline.onChange = {
            if case .timedOut = scene.pipeline.status.lastAttempt?.error, !sawTimeout {
                sawTimeout = true
                try? collector.control(["delay": 0])
            }
        }
        scene.pipeline.start()
        scene.run(untilSecond: 180)
        #expect(sawTimeout)
        #expect(scene.pipeline.flush() == 0)
        let received = try collector.received()
        #expect(Set(received.seqs).count == received.seqs.count)
        #expect(received.seqs == (try scene.storedSeqs()))
    }

    @Test("An unreachable server: samples keep accumulating, and go out after a restart")
    func unreachableServerKeepsSamplesForTheNextStart() throws {
        let port = try CollectorProcess.unusedPort()
        var settings = UploadPipeline.Settings()
        settings.uploadInterval = .seconds(60)
        // The outbox outlives the first scene (and its scratch directory), as a file outlives a process.
        let state = try ScratchDirectory()
        let outboxURL = state.path("outbox.sqlite")
        do {
            let first = try Scene(
                sink: { _ in try HTTPSink(endpoint: "http://127.0.0.1:\(port)/batches", timeout: .seconds(5)) },
                settings: settings, outboxURL: outboxURL)
            first.pipeline.start()
            first.run(untilSecond: 600)
            guard case .connectionFailed = first.pipeline.status.lastAttempt?.error else {
                Issue.record(
                    "expected a refused connection, got \(String(describing: first.pipeline.status.lastAttempt?.error))"
                )
                return
            }
            #expect(first.pipeline.status.consecutiveFailures > 1)
            #expect(first.pipeline.flush() == 120)
        }
        try waitUntilReleased(outboxURL)

        let collector = try CollectorProcess()
        let second = try Scene(
            sink: { _ in try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30)) },
            outboxURL: outboxURL)
        second.pipeline.start()
        second.run(untilSecond: 1)
        let received = try collector.received()
        #expect(received.seqs == Array(1...120))
        #expect(try second.outbox.counters().pendingSamples == 0)
    }

    @Test("A batch the server rejects stays in the outbox with its error; later batches still go")
    func rejectedBatchIsKeptAndSkipped() throws {
        let collector = try CollectorProcess(["--fail-first", "1", "--fail-status", "422"])
        var settings = UploadPipeline.Settings()
        settings.uploadInterval = .seconds(60)
        let scene = try Scene(
            sink: { _ in try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30)) },
            settings: settings)
        scene.pipeline.start()
        scene.run(untilSecond: 121)
        let counters = try scene.outbox.counters()
        #expect(counters.rejectedBatches == 1)
        #expect(counters.pendingSamples == 12)
        #expect(try collector.received().seqs == Array(13...24))
        let pending = try scene.outbox.pendingBatches()
        #expect(pending.first?.lastFailure?.isPermanent == true)
    }
}

/// RunLoopKit's run loop (Foundation has one of the same name).
typealias RunKitLoop = RunLoopKit.RunLoop

/// A sink whose every delivery fails, on another thread, as a refused connection.
private final class RefusingSink: BatchSink {
    var destination: String { "http://127.0.0.1:9/refusing" }

    func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
        let destination = destination
        DispatchQueue.global().async {
            completion(.failure(.connectionFailed(destination: destination, reason: "connection refused")))
        }
    }
}

extension UploadPipelineTests {
    @Test(
        "A failed delivery's backoff is one change: the retry's time, sent back by the effect that sets its timer, waits until that effect is done"
    )
    func retryScheduledWaitsForTheEffects() throws {
        var settings = UploadPipeline.Settings()
        settings.sampleInterval = .seconds(7)
        settings.uploadInterval = .seconds(60)
        settings.retry.base = .seconds(10)
        let scene = try Scene(sink: { _ in RefusingSink() }, settings: settings)
        var changes: [(now: Instant, retryAt: Instant?)] = []
        scene.pipeline.onChange = { changes.append((scene.loop.now, scene.pipeline.status.retryAt)) }
        scene.pipeline.start()
        scene.run(untilSecond: 65)
        let backoff = try #require(changes.first { $0.retryAt != nil }, "no retry was scheduled")
        // Told once of the backoff at the answer's instant (not inside the effect and again after it).
        let told = changes.filter { $0.now == backoff.now && $0.retryAt == backoff.retryAt }
        #expect(told.count == 1, "\(changes)")
    }
}
