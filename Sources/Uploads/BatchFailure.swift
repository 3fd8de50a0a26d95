import Foundation

/// The last failed delivery of a ``Batch``, as recorded by ``Outbox/recordFailure(_:error:at:)``.
public struct BatchFailure: Sendable, Hashable {
    /// What went wrong, in words for the user (the ``UploadError`` description).
    public let message: String
    /// When the failure was recorded, to the millisecond.
    public let at: Date
    /// Whether retrying as is cannot help (the server rejected the batch); the batch stays
    /// in the outbox until someone fixes the cause.
    public let isPermanent: Bool

    /// Creates a failure record.
    public init(message: String, at: Date, isPermanent: Bool) {
        self.message = message
        self.at = at
        self.isPermanent = isPermanent
    }
}
