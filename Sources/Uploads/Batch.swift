import Foundation

/// A group of samples cut by ``Outbox/cutBatch(at:)`` and delivered to a ``BatchSink`` as one.
///
/// The id is a random UUID, so it stays unique even if the outbox file is deleted and a new
/// one starts counting again; sinks use it as the idempotency key.
public struct Batch: Sendable, Hashable, Identifiable {
    /// The batch's id, sent as `batch` and as the `Idempotency-Key` header.
    public let id: UUID
    /// When the batch was cut, to the millisecond.
    public let createdAt: Date
    /// The batch's samples in increasing `seq` order; never empty.
    public let samples: [StoredSample]
    /// How many deliveries have failed so far; feeds ``RetryPolicy/delay(afterAttempt:retryAfter:now:using:)``.
    public let failedAttempts: Int
    /// The most recent failed delivery, if any.
    public let lastFailure: BatchFailure?

    /// The id in its canonical lowercase text form, as sinks send and name it.
    public var key: String { id.uuidString.lowercased() }

    /// Creates a batch value; batches normally come from an ``Outbox``.
    public init(
        id: UUID, createdAt: Date, samples: [StoredSample], failedAttempts: Int = 0, lastFailure: BatchFailure? = nil
    ) {
        self.id = id
        self.createdAt = createdAt
        self.samples = samples
        self.failedAttempts = failedAttempts
        self.lastFailure = lastFailure
    }
}
