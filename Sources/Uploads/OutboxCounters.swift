/// A snapshot of an ``Outbox``'s totals, for a status panel.
public struct OutboxCounters: Sendable, Hashable {
    /// Committed samples not yet acknowledged by a sink (in no batch, or in an unsent batch).
    public let pendingSamples: Int
    /// Committed samples not yet cut into a batch.
    public let unbatchedSamples: Int
    /// Batches waiting for delivery, including rejected ones.
    public let pendingBatches: Int
    /// Pending batches whose last delivery failed permanently (the server rejected them).
    public let rejectedBatches: Int
    /// The samples in those rejected batches: pending, but parked until the next start.
    public let parkedSamples: Int
    /// Samples acknowledged by a sink since the outbox file was created.
    public let deliveredSamples: Int
    /// The most recently appended sample, if any.
    public let lastSample: StoredSample?

    /// Creates a snapshot; counters normally come from ``Outbox/counters()``.
    public init(
        pendingSamples: Int, unbatchedSamples: Int, pendingBatches: Int, rejectedBatches: Int,
        parkedSamples: Int = 0, deliveredSamples: Int, lastSample: StoredSample?
    ) {
        self.pendingSamples = pendingSamples
        self.unbatchedSamples = unbatchedSamples
        self.pendingBatches = pendingBatches
        self.rejectedBatches = rejectedBatches
        self.parkedSamples = parkedSamples
        self.deliveredSamples = deliveredSamples
        self.lastSample = lastSample
    }
}
