import Foundation
import Testing
@testable import Uploads

/// The outbox keeps its totals in the transactions that change them and deletes acknowledged
/// samples after the retention, never pending ones.
@Suite struct OutboxRetentionTests {
    let scratch: ScratchDirectory
    let url: URL

    init() throws {
        scratch = try ScratchDirectory()
        url = scratch.path("outbox.sqlite")
    }

    /// Appends `count` samples from `first` on and cuts them into a batch at `second`.
    private func batch(_ outbox: Outbox, from first: Int, count: Int, at second: Int) throws -> Batch {
        for index in first..<(first + count) { try outbox.append(SampleFixtures.position(index)) }
        return try #require(try outbox.cutBatch(at: SampleFixtures.time(second)))
    }

    @Test("Acknowledged batches older than the retention age go; pending ones and the delivered total stay")
    func ageRetentionDeletesOnlyOldAcknowledgedBatches() throws {
        let outbox = try Outbox(url: url, retention: OutboxRetention(age: .seconds(3_600), count: nil))
        let old = try batch(outbox, from: 0, count: 3, at: 15)
        try outbox.markSent(old.id, at: SampleFixtures.time(20))
        let unsent = try batch(outbox, from: 3, count: 2, at: 30)
        let recent = try batch(outbox, from: 5, count: 4, at: 7_000)
        try outbox.markSent(recent.id, at: SampleFixtures.time(7_001))

        #expect(try outbox.pendingBatches().map(\.id) == [unsent.id])
        #expect(try outbox.pendingBatches().first?.samples.map(\.seq) == [4, 5])
        // markSent of an already deleted batch is an unknown batch: it is gone from the file.
        #expect(throws: OutboxError.unknownBatch(old.id, path: url.path)) { try outbox.markSent(old.id, at: SampleFixtures.time(7_002)) }
        let counters = try outbox.counters()
        #expect(counters.deliveredSamples == 7)
        #expect(counters.pendingSamples == 2)
        #expect(counters.lastSample?.seq == 9)
    }

    @Test("A count retention keeps at most that many acknowledged samples, oldest batches first")
    func countRetentionKeepsTheNewestAcknowledged() throws {
        let outbox = try Outbox(url: url, retention: OutboxRetention(age: nil, count: 5))
        var ids: [UUID] = []
        for round in 0..<4 {
            let cut = try batch(outbox, from: round * 3, count: 3, at: round * 300 + 1)
            try outbox.markSent(cut.id, at: SampleFixtures.time(round * 300 + 2))
            ids.append(cut.id)
        }
        // 12 acknowledged, at most 5 kept in whole batches: the last one (3 samples) stays.
        #expect(try outbox.counters().deliveredSamples == 12)
        for gone in ids.prefix(3) {
            #expect(throws: OutboxError.unknownBatch(gone, path: url.path)) { try outbox.markSent(gone, at: SampleFixtures.time(1_300)) }
        }
        try outbox.markSent(ids[3], at: SampleFixtures.time(1_300))
    }

    @Test("The default retention keeps seven days of acknowledged samples")
    func defaultRetentionIsSevenDays() throws {
        #expect(OutboxRetention.sevenDays == OutboxRetention(age: .seconds(604_800), count: nil))
        #expect(try Outbox(url: url).retention == .sevenDays)
    }

    @Test("A new outbox hands freed pages back (incremental auto-vacuum) and its log is size-limited")
    func newOutboxReclaimsPages() throws {
        let outbox = try Outbox(url: url)
        try outbox.append(SampleFixtures.position(0))
        var mode: Int?
        var limit: Int?
        try outbox.database.read { db in
            mode = try Int.fetchOne(db, sql: "PRAGMA auto_vacuum")
            limit = try Int.fetchOne(db, sql: "PRAGMA journal_size_limit")
        }
        #expect(mode == 2)
        #expect(limit == 4_194_304)
    }

    @Test("Two outboxes on one file: the second names the process holding it; it opens once that one is closed")
    func secondOutboxOnTheSameFileIsRefused() throws {
        var first: Outbox? = try Outbox(url: url)
        let error = try #require(throws: OutboxError.self) { try Outbox(url: url) }
        #expect(error == .inUse(path: url.path, holder: getpid()))
        #expect(error.description == "The outbox \(url.path) is in use by process \(getpid()); only one process may write an outbox. "
            + "Quit that one first, or use another outbox file.")
        #expect(first != nil)
        first = nil
        _ = try Outbox(url: url)
    }
}
