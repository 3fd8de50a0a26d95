import Foundation
import RunLoopKit
import TestSupport
import Testing

@testable import Uploads

/// Faults of the outbox while the pipeline runs: none may pass unnoticed.
@Suite struct UploadPipelineFaultTests {
    @Test(
        "A sample the outbox cannot commit is counted as lost with the reason, and the last sample time stays the last committed one"
    )
    func uncommittedSamplesAreCountedAndNamed() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.path("outbox.sqlite")
        let (outbox, _, pipeline) = try runForAnHourOnAFullDisk(outbox: url, scratch: scratch)

        let committed = try outbox.counters().lastSample?.seq ?? 0
        let unsaved = try #require(pipeline.status.unsaved, "every sample was committed: the page limit is too high")
        #expect(committed > 0)
        #expect(Int(committed) + unsaved.count == 720)
        #expect(unsaved.error == .diskFull(path: url.path))
        #expect(
            unsaved.error.description
                == "The disk holding the outbox \(url.path) is full; the last write was not saved. "
                + "Free some space; samples already saved are kept.")
        #expect(pipeline.status.lastSampleTime == Instant(nanoseconds: committed * 5_000_000_000))
        #expect(unsaved.savedSince == 0)
    }

    @Test("When the disk has room again, the samples saved since the last loss are counted: saving works again")
    func savingAgainAfterAFullDiskIsCounted() throws {
        let scratch = try ScratchDirectory()
        let (outbox, loop, pipeline) = try runForAnHourOnAFullDisk(
            outbox: scratch.path("outbox.sqlite"), scratch: scratch)
        let lost = try #require(pipeline.status.unsaved).count
        #expect(try #require(pipeline.status.unsaved).savedSince == 0)

        try outbox.setPageLimit(1_000_000)
        loop.run(mode: .default, until: Instant(nanoseconds: 3_660_500_000_000))
        let unsaved = try #require(pipeline.status.unsaved)
        #expect(unsaved.count == lost, "no sample is lost once there is room")
        #expect(unsaved.savedSince == 12, "a sample every 5 s for 60 s")
    }

    /// A pipeline sampling every 5 s for an hour into an outbox whose disk fills up: SQLite's page
    /// limit stands in for a full disk, so appends start failing with SQLITE_FULL.
    private func runForAnHourOnAFullDisk(
        outbox url: URL, scratch: ScratchDirectory
    ) throws -> (Outbox, RunKitLoop, UploadPipeline) {
        let outbox = try Outbox(url: url, pageLimit: 16)
        let loop = RunKitLoop(timeSource: .virtual(VirtualClock()))
        let route = try RouteReplay(contentsOf: URL(fileURLWithPath: RouteReplayTests.resourcePath))
        var settings = UploadPipeline.Settings()
        settings.uploadInterval = .seconds(86_400)
        let pipeline = UploadPipeline(
            loop: loop, outbox: outbox, sampler: route,
            sink: DirectorySink(directory: scratch.path("uploads")), settings: settings)
        pipeline.start()
        loop.run(mode: .default, until: Instant(nanoseconds: 3_600_500_000_000))
        return (outbox, loop, pipeline)
    }
}
