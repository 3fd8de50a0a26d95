/// A sample committed to an ``Outbox``, with the sequence number the outbox gave it.
///
/// `seq` only ever increases within one outbox file, across restarts and crashes.
public struct StoredSample: Sendable, Hashable {
    /// The sample's sequence number in its outbox; sent as `seq`.
    public let seq: Int64
    /// The sample as it was appended.
    public let sample: Sample

    /// Pairs a sample with its sequence number.
    public init(seq: Int64, sample: Sample) {
        self.seq = seq
        self.sample = sample
    }
}
