import Foundation
import GRDB
import TestSupport
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
        return try #require(try outbox.cutBatch(at: SampleFixtures.time(second)).value)
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
        #expect(throws: OutboxError.unknownBatch(old.id, path: url.path)) {
            try outbox.markSent(old.id, at: SampleFixtures.time(7_002))
        }
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
            #expect(throws: OutboxError.unknownBatch(gone, path: url.path)) {
                try outbox.markSent(gone, at: SampleFixtures.time(1_300))
            }
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
        #expect(
            error.description
                == "The outbox \(url.path) is in use by process \(getpid()); only one process may write an outbox. "
                + "Quit that one first, or use another outbox file.")
        #expect(first != nil)
        first = nil
        _ = try Outbox(url: url)
    }
}

extension OutboxRetentionTests {
    @Test("A file from before the totals and retention upgrades in place: counts kept, auto-vacuum turned on")
    func versionOneFileUpgradesInPlace() throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            // The v1 schema as shipped, with one sent batch of 2 samples, one pending of 1, one unbatched.
            let old = try DatabaseQueue(path: url.path)
            try old.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                        INSERT INTO grdb_migrations VALUES ('v1: samples and batches');
                        CREATE TABLE batch (id TEXT PRIMARY KEY NOT NULL, created_at_ms INTEGER NOT NULL, sent_at_ms INTEGER,
                            attempts INTEGER NOT NULL DEFAULT 0, failure_message TEXT, failure_at_ms INTEGER,
                            failure_permanent INTEGER NOT NULL DEFAULT 0);
                        CREATE TABLE sample (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, taken_at_ms INTEGER NOT NULL,
                            fields TEXT NOT NULL, batch_id TEXT REFERENCES batch(id));
                        CREATE INDEX sample_by_batch ON sample(batch_id);
                        INSERT INTO batch (id, created_at_ms, sent_at_ms) VALUES ('00000000-0000-0000-0000-000000000001', 1, 2);
                        INSERT INTO batch (id, created_at_ms) VALUES ('00000000-0000-0000-0000-000000000002', 3);
                        INSERT INTO sample (kind, taken_at_ms, fields, batch_id) VALUES
                            ('position', 10, '{"lat":1,"lon":2}', '00000000-0000-0000-0000-000000000001'),
                            ('position', 11, '{"lat":1,"lon":2}', '00000000-0000-0000-0000-000000000001'),
                            ('position', 12, '{"lat":1,"lon":2}', '00000000-0000-0000-0000-000000000002'),
                            ('position', 13, '{"lat":1,"lon":2}', NULL);
                        """)
            }
        }
        let outbox = try Outbox(url: url)
        let counters = try outbox.counters()
        #expect(counters.deliveredSamples == 2)
        #expect(counters.pendingSamples == 2)
        #expect(counters.unbatchedSamples == 1)
        #expect(counters.pendingBatches == 1)
        #expect(counters.lastSample?.seq == 4)
        #expect(try outbox.database.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") } == 2)
        #expect(try outbox.pendingBatches().first?.samples.map(\.seq) == [3])
    }
}
