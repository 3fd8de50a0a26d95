import GRDB

extension Outbox {
    /// How many samples a step of ``enforce(_:sparing:_:)`` drops before it measures again.
    static let dropStep = 256

    /// The bytes of the database's pages in use (free pages left out).
    static func usedBytes(_ db: Database) throws -> Int64 {
        let pages = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let free = try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
        return (pages - free) * pageSize
    }

    /// Brings the database within `cap` bytes, in the caller's transaction: acknowledged batches
    /// go first, oldest first, as retention would take them; then pending samples, oldest first
    /// (by `seq`), except those of the batches in `sparing`, each counted in the tally with when
    /// it was taken. Batches left empty go too, and the freed pages back to the file system. The
    /// newest sample is never dropped: a cap smaller than one sample's database keeps that one.
    static func enforce(_ cap: Int64, sparing: Set<String>, _ db: Database) throws {
        guard try usedBytes(db) > cap else { return }
        var tally = try TallyRecord.fetch(db)
        let sentAt = BatchRecord.CodingKeys.sentAtMs
        while try usedBytes(db) > cap,
            let oldest = try BatchRecord.filter(sentAt != nil).order(sentAt, Column.rowID).fetchOne(db)
        {
            try deleteAcknowledged([oldest], from: &tally, db)
        }
        let newest = try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM sample") ?? 0
        let spared = sparing.sorted()
        let notSpared =
            spared.isEmpty ? "" : " AND sample.batch_id NOT IN (\(spared.map { _ in "?" }.joined(separator: ", ")))"
        while try usedBytes(db) > cap {
            let doomed = try Row.fetchAll(
                db,
                sql: """
                    SELECT sample.seq, sample.taken_at_ms, sample.batch_id FROM sample
                    LEFT JOIN batch ON batch.id = sample.batch_id
                    WHERE sample.seq < ?
                        AND (sample.batch_id IS NULL OR (batch.sent_at_ms IS NULL\(notSpared)))
                    ORDER BY sample.seq LIMIT ?
                    """,
                arguments: StatementArguments([newest] + spared + [dropStep] as [(any DatabaseValueConvertible)?])
            )
            guard !doomed.isEmpty else { break }
            let seqs: [Int64] = doomed.map { $0[0] }
            try SampleRecord.deleteAll(db, keys: seqs)
            var perBatch: [String: Int] = [:]
            for row in doomed {
                let takenAt: Int64 = row[1]
                tally.droppedFirstTakenMs = min(tally.droppedFirstTakenMs ?? takenAt, takenAt)
                tally.droppedLastTakenMs = max(tally.droppedLastTakenMs ?? takenAt, takenAt)
                if let batch: String = row[2] { perBatch[batch, default: 0] += 1 }
            }
            tally.droppedSamples += doomed.count
            for (key, count) in perBatch {
                guard var batch = try BatchRecord.fetchOne(db, key: key) else { continue }
                batch.sampleCount -= count
                if batch.sampleCount > 0 { try batch.update(db) } else { try batch.delete(db) }
            }
        }
        try tally.update(db)
        try db.execute(sql: "PRAGMA incremental_vacuum")
    }

    /// Deletes acknowledged `batches` and their samples, and takes them off `tally`'s kept samples:
    /// what retention and the size cap remove of what a sink already has.
    static func deleteAcknowledged(_ batches: [BatchRecord], from tally: inout TallyRecord, _ db: Database) throws {
        let keys = batches.map(\.id)
        try SampleRecord.filter(keys.contains(SampleRecord.CodingKeys.batchId)).deleteAll(db)
        try BatchRecord.deleteAll(db, keys: keys)
        tally.keptSamples -= batches.reduce(0) { $0 + $1.sampleCount }
    }
}
