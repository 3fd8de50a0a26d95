import Foundation
import GRDB
import TestSupport
import Testing

@testable import Uploads

/// Over its size cap the outbox drops the oldest samples, acknowledged ones first, and counts
/// every one it drops; a batch handed out for delivery keeps its samples.
@Suite struct OutboxSizeCapTests {
    let scratch: ScratchDirectory
    let url: URL
    /// Sixteen 4 KiB pages: a few hundred samples.
    let cap: Int64 = 65_536

    init() throws {
        scratch = try ScratchDirectory()
        url = scratch.path("outbox.sqlite")
    }

    /// Appends samples `range` and returns the counters after the last.
    @discardableResult
    private func append(_ range: Range<Int>, to outbox: Outbox) throws -> OutboxCounters {
        var counters: OutboxCounters?
        for index in range { counters = try outbox.append(SampleFixtures.position(index)).counters }
        return try #require(counters)
    }

    /// When sample `index` was taken.
    private func takenAt(_ index: Int) -> Date {
        Date(timeIntervalSince1970: Double(SampleFixtures.position(index).takenAtMilliseconds) / 1000)
    }

    @Test("Filled past the cap, the database stays within it and the oldest samples go, every one counted")
    func fillsToTheCapAndDropsOldestFirst() throws {
        let outbox = try Outbox(url: url, sizeCap: cap)
        let appended = 3_000
        let counters = try append(0..<appended, to: outbox)
        #expect(try outbox.databaseSize() <= cap)
        #expect(counters.droppedSamples > 0)
        #expect(counters.pendingSamples + counters.droppedSamples == appended)
        // The ones left are the newest, without a gap: the dropped ones are exactly the oldest.
        let left = try outbox.database.read { db in try Int64.fetchAll(db, sql: "SELECT seq FROM sample ORDER BY seq") }
        #expect(left.first == Int64(counters.droppedSamples + 1) && left.last == Int64(appended))
        #expect(left.count == counters.pendingSamples)
        #expect(counters.droppedTakenAt == takenAt(0)...takenAt(counters.droppedSamples - 1))
        #expect(counters.droppedSummary?.hasPrefix("outbox full: \(counters.droppedSamples) samples dropped") == true)
    }

    @Test("Without a cap nothing is dropped, and the same samples take more than the cap")
    func noCapDropsNothing() throws {
        let outbox = try Outbox(url: url)
        let counters = try append(0..<3_000, to: outbox)
        #expect(counters.droppedSamples == 0 && counters.pendingSamples == 3_000 && counters.droppedSummary == nil)
        #expect(try outbox.databaseSize() > cap)
    }

    @Test("Acknowledged samples go before any pending one")
    func acknowledgedGoFirst() throws {
        let outbox = try Outbox(url: url, sizeCap: cap)
        try append(0..<150, to: outbox)
        let delivered = try #require(try outbox.cutBatch(at: SampleFixtures.time(1_000)).value)
        try outbox.markSent(delivered.id, at: SampleFixtures.time(1_001))
        // Enough to need the acknowledged rows' room, not more than the cap holds pending.
        let counters = try append(150..<400, to: outbox)
        #expect(counters.droppedSamples == 0 && counters.pendingSamples == 250 && counters.deliveredSamples == 150)
        let kept = try outbox.database.read { db in try TallyRecord.fetch(db).keptSamples }
        #expect(kept < 150)
        #expect(try outbox.databaseSize() <= cap)
    }

    @Test("A batch handed out for delivery keeps its samples; once answered, the count is exact")
    func handedOutBatchIsSpared() throws {
        let outbox = try Outbox(url: url, sizeCap: cap)
        try append(0..<100, to: outbox)
        let inFlight = try #require(try outbox.cutBatch(at: SampleFixtures.time(600)).value)
        var counters = try append(100..<3_000, to: outbox)
        #expect(counters.droppedSamples > 0)
        let batchSamples = try outbox.database.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM sample WHERE batch_id = ?",
                arguments: [inFlight.id.uuidString.lowercased()])
        }
        #expect(batchSamples == 100)
        counters = try outbox.markSent(inFlight.id, at: SampleFixtures.time(20_000)).counters
        #expect(counters.deliveredSamples == 100)
        #expect(counters.deliveredSamples + counters.pendingSamples + counters.droppedSamples == 3_000)
        // The dropped ones are the oldest samples after the batch.
        #expect(counters.droppedTakenAt?.lowerBound == takenAt(100))
    }

    @Test("The counts of dropped samples stay in the file across a restart")
    func droppedCountsPersist() throws {
        let dropped: Int
        do {
            let outbox = try Outbox(url: url, sizeCap: cap)
            dropped = try append(0..<2_000, to: outbox).droppedSamples
        }
        let reopened = try Outbox(url: url, sizeCap: cap)
        let counters = try reopened.counters()
        #expect(dropped > 0 && counters.droppedSamples == dropped)
        #expect(counters.droppedTakenAt == takenAt(0)...takenAt(dropped - 1))
    }

    @Test("A handed-out batch larger than one drop step does not stop the drops behind it")
    func largeHandedOutBatchDoesNotStopTheDrops() throws {
        let cap: Int64 = 262_144
        let outbox = try Outbox(url: url, sizeCap: cap)
        try append(0..<1_100, to: outbox)
        _ = try #require(try outbox.cutBatch(at: SampleFixtures.time(6_000)).value)
        let counters = try append(1_100..<6_000, to: outbox)
        #expect(counters.droppedSamples > 0)
        #expect(try outbox.databaseSize() <= cap)
        #expect(counters.droppedTakenAt?.lowerBound == takenAt(1_100))
    }
}
