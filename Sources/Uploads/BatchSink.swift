/// Where batches go: a server (``HTTPSink``) or a local directory (``DirectorySink``).
///
/// ``deliver(_:completion:)`` returns at once and does its I/O off the caller's thread. The
/// completion runs exactly once, on a background thread, never inside `deliver`; a run loop
/// posts it back to its own thread before touching the outbox. A sink delivers the same batch
/// idempotently: sending it twice (after a crash between the ack and
/// ``Outbox/markSent(_:at:)``) stores it once.
public protocol BatchSink: Sendable {
    /// Where this sink delivers, for the user: a URL or a directory path.
    var destination: String { get }

    /// Starts delivering `batch`; `completion` receives the acknowledgement or the failure.
    func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void)
}
