import GRDB

/// A row of the outbox's `batch` table.
struct BatchRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "batch"

    var id: String
    var createdAtMs: Int64
    var sentAtMs: Int64?
    var attempts: Int
    var failureMessage: String?
    var failureAtMs: Int64?
    var failurePermanent: Bool
    /// How many samples the batch holds, kept so totals never need to scan samples.
    var sampleCount: Int

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case id, attempts
        case createdAtMs = "created_at_ms"
        case sentAtMs = "sent_at_ms"
        case failureMessage = "failure_message"
        case failureAtMs = "failure_at_ms"
        case failurePermanent = "failure_permanent"
        case sampleCount = "sample_count"
    }
}
