import Foundation

/// The JSON document a sink delivers for a batch:
/// `{"batch": ID, "samples": [{"seq": N, "taken_at": ISO-8601, "kind": K, ...fields}]}`.
///
/// Keys are sorted and slashes unescaped, so the same batch always gives the same bytes
/// (a directory sink rewriting a file writes identical content).
struct BatchPayload: Encodable {
    let batch: String
    let samples: [PayloadSample]

    init(_ batch: Batch) {
        self.batch = batch.key
        self.samples = batch.samples.map(PayloadSample.init)
    }

    /// The payload as UTF-8 JSON bytes.
    static func encode(_ batch: Batch) throws(UploadError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(BatchPayload(batch))
        } catch {
            throw .encodingFailed(String(describing: error))
        }
    }
}
