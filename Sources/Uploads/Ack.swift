import Foundation

/// A sink's acknowledgement that it has durably taken a batch; only then is it marked sent.
public struct Ack: Sendable, Hashable {
    /// The batch acknowledged.
    public let batchID: UUID
    /// Where it went: the endpoint URL or the file written.
    public let destination: String
    /// The HTTP status of the acknowledgement, for an HTTP sink.
    public let statusCode: Int?

    /// Creates an acknowledgement.
    public init(batchID: UUID, destination: String, statusCode: Int? = nil) {
        self.batchID = batchID
        self.destination = destination
        self.statusCode = statusCode
    }
}
