import Foundation

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
    /// Pending samples the outbox's size cap dropped, oldest first, since the file was created.
    public let droppedSamples: Int
    /// When the oldest and the newest dropped sample were taken; nil when none was dropped.
    public let droppedTakenAt: ClosedRange<Date>?

    /// Creates a snapshot; counters normally come from ``Outbox/counters()``.
    public init(
        pendingSamples: Int, unbatchedSamples: Int, pendingBatches: Int, rejectedBatches: Int,
        parkedSamples: Int = 0, deliveredSamples: Int, lastSample: StoredSample?, droppedSamples: Int = 0,
        droppedTakenAt: ClosedRange<Date>? = nil
    ) {
        self.pendingSamples = pendingSamples
        self.unbatchedSamples = unbatchedSamples
        self.pendingBatches = pendingBatches
        self.rejectedBatches = rejectedBatches
        self.parkedSamples = parkedSamples
        self.deliveredSamples = deliveredSamples
        self.lastSample = lastSample
        self.droppedSamples = droppedSamples
        self.droppedTakenAt = droppedTakenAt
    }

    /// What the size cap dropped, for a panel: "outbox full: 120 samples dropped, oldest first
    /// (taken 2026-01-01T00:00:05.000Z … 2026-01-01T00:09:55.000Z)"; nil when nothing was.
    public var droppedSummary: String? {
        guard droppedSamples > 0 else { return nil }
        let noun = droppedSamples == 1 ? "sample" : "samples"
        guard let range = droppedTakenAt else { return "outbox full: \(droppedSamples) \(noun) dropped, oldest first" }
        func text(_ date: Date) -> String {
            Sample.iso8601(millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
        }
        return
            "outbox full: \(droppedSamples) \(noun) dropped, oldest first (taken \(text(range.lowerBound)) … \(text(range.upperBound)))"
    }
}
