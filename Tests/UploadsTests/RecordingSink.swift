import Synchronization
import Uploads

/// A sink that passes batches on to another and keeps every batch it was handed, for tests that
/// compare what a server stored with what the pipeline sent.
final class RecordingSink: BatchSink {
    private let inner: any BatchSink
    private let handed = Mutex<[Batch]>([])

    init(_ inner: any BatchSink) {
        self.inner = inner
    }

    var destination: String { inner.destination }

    /// Every sample handed over, once each, in seq order.
    var samples: [StoredSample] {
        let all = handed.withLock { $0.flatMap(\.samples) }
        return Dictionary(all.map { ($0.seq, $0) }) { first, _ in first }.values.sorted { $0.seq < $1.seq }
    }

    func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
        handed.withLock { $0.append(batch) }
        inner.deliver(batch, completion: completion)
    }
}
