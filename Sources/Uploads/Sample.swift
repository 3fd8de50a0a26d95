import Foundation

/// One measurement taken by a ``Sampler``: what was measured and the wall time it was taken.
///
/// The time is kept in whole milliseconds since the Unix epoch, as the outbox stores it,
/// so a sample read back from an ``Outbox`` equals the one appended.
///
/// ```swift
/// let sample = Sample(takenAt: Date(), fields: .position(latitude: 48.85, longitude: 2.35, elevation: 35))
/// let seq = try outbox.append(sample).value.seq
/// ```
public struct Sample: Sendable, Hashable {
    /// Wall time the sample was taken, in milliseconds since 1970-01-01T00:00:00Z.
    public let takenAtMilliseconds: Int64
    /// The measured values.
    public let fields: SampleFields

    /// The wall time the sample was taken, to the millisecond.
    public var takenAt: Date { Date(timeIntervalSince1970: Double(takenAtMilliseconds) / 1000) }

    /// What the sample measures; follows from ``fields``.
    public var kind: SampleKind { fields.kind }

    /// Creates a sample taken at `takenAt`, truncated to whole milliseconds.
    public init(takenAt: Date, fields: SampleFields) {
        // The one conversion from Foundation's floating-point seconds; everything after is integral.
        self.init(takenAtMilliseconds: Int64((takenAt.timeIntervalSince1970 * 1000).rounded(.down)), fields: fields)
    }

    /// Creates a sample taken at a number of milliseconds since the Unix epoch.
    public init(takenAtMilliseconds: Int64, fields: SampleFields) {
        self.takenAtMilliseconds = takenAtMilliseconds
        self.fields = fields
    }
}
