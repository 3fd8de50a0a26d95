import Dispatch
import Foundation
import RunLoopKit
import TerminalUI
import TestSupport
import Testing

@testable import TimerDeck
@testable import Uploads

/// "Samples refused" counts samples once each, with the batches and attempts they took: a batch the
/// server refuses for its credentials goes again at every upload, and its samples are still the
/// same samples.
@Suite("Refused samples are counted once")
struct RefusedSamplesTests {
    /// A sink that refuses every batch as a wrong password would, answering from another thread.
    struct RefusingSink: BatchSink {
        static let refusal = UploadError.rejected(status: 401, message: "Unauthorized")
        var destination: String { "https://db.example/api/v1/write" }

        func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
            DispatchQueue.global().async { completion(.failure(Self.refusal)) }
        }
    }

    @Test(
        "10 samples, a batch of 7 refused 3 times: 7 samples refused (1 batch, 3 attempts) beside pending 10 (7 parked)"
    )
    func batchRefusedThreeTimes() throws {
        let scratch = try ScratchDirectory()
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        let outbox = try Outbox(url: scratch.path("outbox.sqlite"))
        var settings = UploadPipeline.Settings()
        settings.sampleInterval = .seconds(1)
        settings.uploadInterval = .seconds(3_600)
        let pipeline = UploadPipeline(
            loop: loop, outbox: outbox,
            sampler: try RouteReplay(points: RouteReplay.parseGPX(ShippedFile.route, source: "the shipped route")),
            sink: RefusingSink(), settings: settings)
        let run = { (milliseconds: Int64) in
            _ = loop.run(mode: .default, until: Instant(nanoseconds: milliseconds * 1_000_000))
        }
        pipeline.start()
        run(7_500)  // samples 1 to 7
        pipeline.runNow(.upload)  // the batch of 7, refused
        run(10_500)  // samples 8 to 10
        pipeline.pause(.sample)
        pipeline.runNow(.upload)  // cuts a batch of 3; the batch of 7 goes first, refused again
        run(11_000)
        pipeline.runNow(.upload)  // refused a third time
        run(12_000)

        let status = pipeline.status
        let refused = try #require(status.refused)
        #expect((refused.count, refused.batches, refused.attempts) == (7, 1, 3))
        #expect(refused.error == RefusingSink.refusal)
        let counters = try outbox.counters()
        #expect((counters.pendingSamples, counters.parkedSamples, counters.rejectedBatches) == (10, 7, 1))

        var state = DashboardState(
            scene: .standard(Config(), uploadsLabel: "https://db.example"), size: Size(width: 120, height: 40))
        _ = state.apply(.pipelineStatus(status))
        let screen = GridScreen(size: state.layout.size)
        let snapshot = DashboardSnapshot(
            state: state,
            loop: LoopStatus(
                mode: .default, depth: 1, commonModes: [.default, .tracking], now: loop.now, startTime: .zero),
            readings: [:])
        UploadPanel.draw(snapshot, on: screen.canvas.region(try #require(state.layout.uploads)), focused: false)
        let panel = screen.snapshot()
        #expect(panel.contains("7 samples refused (1 batch, 3 attempts)"), "\(panel)")
        #expect(panel.contains("pending 10 (7 parked)"), "\(panel)")
        #expect(panel.contains("1 batch rejected"), "\(panel)")
        #expect(
            state.messages.contains(
                "7 samples refused (1 batch, 3 attempts) this run, parked in the outbox until the server takes the "
                    + "credentials: \(RefusingSink.refusal.description)"), "\(state.messages)")
    }
}
