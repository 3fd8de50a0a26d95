/// What a write to the ``Outbox`` returns: its own result and the totals it left, read in the same
/// transaction, so a status panel never needs a query of its own after a write.
///
/// ```swift
/// let appended = try outbox.append(sample)
/// print(appended.value.seq, appended.counters.pendingSamples)
/// ```
public struct OutboxWrite<Value> {
    /// What the write itself returns (the stored sample, the cut batch; nothing for a mark).
    public let value: Value
    /// The outbox's totals right after the write.
    public let counters: OutboxCounters
}

extension OutboxWrite: Sendable where Value: Sendable {}
