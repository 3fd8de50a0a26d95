import GRDB

/// The outbox's one-row `tally` table: totals kept in the same transaction as the change they count.
struct TallyRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tally"

    var id = 1
    /// Samples acknowledged since the file was created (retention does not lower it).
    var deliveredSamples: Int
    /// Acknowledged samples still in the file (retention lowers it).
    var keptSamples: Int
    /// Pending samples the size cap dropped since the file was created.
    var droppedSamples = 0
    /// When the oldest and the newest of them were taken (milliseconds since the epoch).
    var droppedFirstTakenMs: Int64?
    var droppedLastTakenMs: Int64?

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id
        case deliveredSamples = "delivered_samples"
        case keptSamples = "kept_samples"
        case droppedSamples = "dropped_samples"
        case droppedFirstTakenMs = "dropped_first_taken_ms"
        case droppedLastTakenMs = "dropped_last_taken_ms"
    }

    /// The one row; its absence means the file was damaged.
    static func fetch(_ db: Database) throws -> TallyRecord {
        guard let tally = try TallyRecord.fetchOne(db, key: 1) else {
            throw DatabaseError(resultCode: .SQLITE_CORRUPT, message: "the tally row is missing")
        }
        return tally
    }
}
