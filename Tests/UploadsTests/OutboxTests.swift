import Foundation
import TestSupport
import Testing

@testable import Uploads

@Suite struct OutboxTests {
    let scratch: ScratchDirectory
    let url: URL

    init() throws {
        scratch = try ScratchDirectory()
        url = scratch.path("state/timerdeck/outbox.sqlite")
    }

    @Test func appendedSamplesReadBackUnchanged() throws {
        let outbox = try Outbox(url: url)
        let samples = [SampleFixtures.position(0), SampleFixtures.hostMetrics(1), SampleFixtures.position(2)]
        let stored = try samples.map { try outbox.append($0).value }
        let batch = try #require(try outbox.cutBatch(at: SampleFixtures.time(15)).value)
        #expect(batch.samples == stored)
        #expect(batch.samples.map(\.sample) == samples)
    }

    @Test func seqKeepsIncreasingAcrossReopen() throws {
        var seqs: [Int64] = []
        do {
            let outbox = try Outbox(url: url)
            for index in 0..<3 { seqs.append(try outbox.append(SampleFixtures.position(index)).value.seq) }
            _ = try outbox.cutBatch(at: SampleFixtures.time(15)).value
        }
        let reopened = try Outbox(url: url)
        for index in 3..<5 { seqs.append(try reopened.append(SampleFixtures.position(index)).value.seq) }
        #expect(seqs == [1, 2, 3, 4, 5])
        #expect(try reopened.counters().lastSample?.seq == 5)
    }

    @Test func fileIsInWALMode() throws {
        let outbox = try Outbox(url: url)
        try outbox.append(SampleFixtures.position(0))
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test func cutBatchTakesEveryUnbatchedSampleOnce() throws {
        let outbox = try Outbox(url: url)
        for index in 0..<3 { try outbox.append(SampleFixtures.position(index)) }
        let first = try #require(try outbox.cutBatch(at: SampleFixtures.time(300)).value)
        #expect(first.samples.map(\.seq) == [1, 2, 3])
        #expect(first.failedAttempts == 0)
        #expect(first.lastFailure == nil)
        #expect(try outbox.cutBatch(at: SampleFixtures.time(301)).value == nil)

        try outbox.append(SampleFixtures.position(3))
        let second = try #require(try outbox.cutBatch(at: SampleFixtures.time(600)).value)
        #expect(second.samples.map(\.seq) == [4])
        #expect(second.id != first.id)
        #expect(try outbox.pendingBatches().map(\.id) == [first.id, second.id])
    }

    @Test func markSentRemovesTheBatchFromPendingAndCountsItDelivered() throws {
        let outbox = try Outbox(url: url)
        for index in 0..<3 { try outbox.append(SampleFixtures.position(index)) }
        let batch = try #require(try outbox.cutBatch(at: SampleFixtures.time(300)).value)
        try outbox.append(SampleFixtures.position(3))

        let before = try outbox.counters()
        #expect(before.pendingSamples == 4)
        #expect(before.unbatchedSamples == 1)
        #expect(before.pendingBatches == 1)
        #expect(before.deliveredSamples == 0)

        try outbox.markSent(batch.id, at: SampleFixtures.time(302))
        try outbox.markSent(batch.id, at: SampleFixtures.time(303))  // a second ack changes nothing
        #expect(try outbox.pendingBatches().isEmpty)
        let after = try outbox.counters()
        #expect(after.pendingSamples == 1)
        #expect(after.unbatchedSamples == 1)
        #expect(after.pendingBatches == 0)
        #expect(after.deliveredSamples == 3)
        #expect(after.lastSample == StoredSample(seq: 4, sample: SampleFixtures.position(3)))
    }

    @Test func pendingBatchSurvivesReopen() throws {
        let batch: Batch
        do {
            let outbox = try Outbox(url: url)
            for index in 0..<4 { try outbox.append(SampleFixtures.position(index)) }
            batch = try #require(try outbox.cutBatch(at: SampleFixtures.time(300)).value)
            try outbox.append(SampleFixtures.hostMetrics(4))
        }
        let reopened = try Outbox(url: url)
        #expect(try reopened.pendingBatches() == [batch])
        #expect(try reopened.counters().unbatchedSamples == 1)
    }

    @Test func recordedFailureKeepsTheBatchPendingWithTheError() throws {
        let outbox = try Outbox(url: url)
        try outbox.append(SampleFixtures.position(0))
        let batch = try #require(try outbox.cutBatch(at: SampleFixtures.time(300)).value)

        try outbox.recordFailure(
            batch.id, error: .serverUnavailable(status: 503, retryAfter: nil), at: SampleFixtures.time(301))
        var pending = try #require(try outbox.pendingBatches().first)
        #expect(pending.failedAttempts == 1)
        #expect(pending.lastFailure?.isPermanent == false)
        #expect(try outbox.counters().rejectedBatches == 0)

        let rejection = UploadError.rejected(status: 400, message: "samples must be a non-empty list")
        try outbox.recordFailure(batch.id, error: rejection, at: SampleFixtures.time(302))
        pending = try #require(try outbox.pendingBatches().first)
        #expect(pending.failedAttempts == 2)
        #expect(
            pending.lastFailure
                == BatchFailure(message: rejection.description, at: SampleFixtures.time(302), isPermanent: true))
        #expect(pending.samples == batch.samples)
        #expect(try outbox.counters().rejectedBatches == 1)
    }

    @Test func unknownBatchIsAnError() throws {
        let outbox = try Outbox(url: url)
        let id = UUID()
        #expect(throws: OutboxError.unknownBatch(id, path: url.path)) {
            try outbox.markSent(id, at: SampleFixtures.time(0))
        }
        #expect(throws: OutboxError.unknownBatch(id, path: url.path)) {
            try outbox.recordFailure(
                id, error: .timedOut(destination: "x", after: .seconds(1)), at: SampleFixtures.time(0))
        }
    }

    @Test func fileThatIsNotADatabaseIsReportedAndLeftAlone() throws {
        let text = Data("these are notes, not an outbox\n".utf8)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url)

        let error = try #require(throws: OutboxError.self) { try Outbox(url: url) }
        guard case .corrupt(let path, _) = error else {
            Issue.record("expected .corrupt, got \(error)")
            return
        }
        #expect(path == url.path)
        #expect(error.description.contains(url.path))
        #expect(try Data(contentsOf: url) == text)
    }

    @Test func directoryThatCannotBeCreatedIsReported() throws {
        let blocker = scratch.path("blocker")
        try Data("a file where a directory should be".utf8).write(to: blocker)
        let inside = blocker.appendingPathComponent("timerdeck/outbox.sqlite")

        let error = try #require(throws: OutboxError.self) { try Outbox(url: inside) }
        #expect(
            error == .directoryUnavailable(path: blocker.path, reason: "cannot use as a directory: Not a directory"))
        #expect(
            error.description
                == "Cannot use the outbox directory \(blocker.path): cannot use as a directory: Not a directory.")
    }

    @Test func fullDiskFailsTheWriteAndKeepsCommittedSamples() throws {
        var committed = 0
        var failure: OutboxError?
        do {
            // SQLite's page limit stands in for a full disk: the write fails with SQLITE_FULL.
            let limited = try Outbox(url: url, pageLimit: 12)
            for index in 0..<10_000 {
                do {
                    try limited.append(SampleFixtures.position(index))
                    committed += 1
                } catch {
                    failure = error
                    break
                }
            }
        }
        #expect(committed > 0)
        #expect(failure == .diskFull(path: url.path))
        #expect(failure?.description.contains("is full") == true)

        let reopened = try Outbox(url: url)
        #expect(try reopened.counters().pendingSamples == committed)
        let retried = try reopened.append(SampleFixtures.position(committed))
        #expect(retried.value.seq == Int64(committed) + 1)
    }

    @Test func defaultLocationFollowsXDGStateHome() {
        #expect(
            Outbox.defaultURL(environment: ["XDG_STATE_HOME": "/var/state", "HOME": "/home/ada"]).path
                == "/var/state/timerdeck/outbox.sqlite")
        #expect(
            Outbox.defaultURL(environment: ["HOME": "/home/ada"]).path
                == "/home/ada/.local/state/timerdeck/outbox.sqlite")
        #expect(
            Outbox.defaultURL(environment: ["XDG_STATE_HOME": "relative/state", "HOME": "/home/ada"]).path
                == "/home/ada/.local/state/timerdeck/outbox.sqlite")
        #expect(
            DirectorySink.defaultDirectory(environment: ["XDG_STATE_HOME": "/var/state"]).path
                == "/var/state/timerdeck/uploads")
    }
}
