/// One sample in a ``BatchPayload``: `seq`, `taken_at`, `kind` and the flattened fields.
struct PayloadSample: Encodable {
    let stored: StoredSample

    private enum Key: String, CodingKey {
        case seq
        case takenAt = "taken_at"
        case kind
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(stored.seq, forKey: .seq)
        try container.encode(stored.sample.takenAtISO8601, forKey: .takenAt)
        try container.encode(stored.sample.kind.rawValue, forKey: .kind)
        // Same encoder, so the field values land in the same JSON object.
        try FieldValues(stored.sample.fields).encode(to: encoder)
    }
}
