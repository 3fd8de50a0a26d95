import GRDB

/// A row of the outbox's `sample` table.
struct SampleRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "sample"

    var seq: Int64?
    var kind: String
    var takenAtMs: Int64
    /// Stored as sorted-key JSON text (GRDB's encoding of a nested `Codable`).
    var fields: FieldValues
    var batchId: String?

    enum CodingKeys: String, CodingKey, ColumnExpression {
        case seq, kind, fields
        case takenAtMs = "taken_at_ms"
        case batchId = "batch_id"
    }

    init(_ sample: Sample) {
        kind = sample.kind.rawValue
        takenAtMs = sample.takenAtMilliseconds
        fields = FieldValues(sample.fields)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        seq = inserted.rowID
    }

    /// The sample as appended; a row that does not decode is reported, never skipped.
    func stored() throws -> StoredSample {
        guard let seq, let sampleKind = SampleKind(rawValue: kind), let values = fields.fields(of: sampleKind) else {
            throw DatabaseError(
                resultCode: .SQLITE_CORRUPT,
                message: "sample \(seq.map(String.init) ?? "?") of kind \"\(kind)\" has unreadable fields")
        }
        return StoredSample(seq: seq, sample: Sample(takenAtMilliseconds: takenAtMs, fields: values))
    }
}
