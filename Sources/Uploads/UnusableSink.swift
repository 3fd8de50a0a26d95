import Dispatch

/// The sink in place when the configured one cannot be used (an invalid upload URL): every
/// delivery fails with the configuration error, so the user sees why in the panel while samples
/// keep accumulating in the outbox, to go out once the setting is fixed.
///
/// ```swift
/// let sink: any BatchSink
/// do { sink = try HTTPSink(endpoint: url, timeout: .seconds(10)) }
/// catch { sink = UnusableSink(destination: url, error: error) }
/// ```
public struct UnusableSink: BatchSink {
    /// The destination as configured.
    public let destination: String
    /// Why it cannot be used.
    public let error: UploadError

    /// A sink for `destination` that fails every delivery with `error`.
    public init(destination: String, error: UploadError) {
        self.destination = destination
        self.error = error
    }

    /// Fails with ``error`` on a background queue (never inside this call, as ``BatchSink`` requires).
    public func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
        let error = error
        DispatchQueue.global().async { completion(.failure(error)) }
    }
}
