/// The measured values of a sample; the case decides the sample's ``SampleKind``.
///
/// On the wire and in the outbox the values are flat JSON fields: `lat`, `lon`, `ele`
/// (degrees, degrees, metres) for a position; `load1`, `load5`, `load15` (run-queue
/// averages over 1, 5 and 15 minutes) and `memTotal`, `memAvailable` (bytes) for host
/// metrics; `loop`, a list of ``LoopReading``s, for a run loop's health.
public enum SampleFields: Sendable, Hashable {
    /// A point of a track in WGS 84 degrees; `elevation` in metres when the track has one.
    case position(latitude: Double, longitude: Double, elevation: Double?)
    /// Load averages and memory of the host; memory in bytes.
    case hostMetrics(load1: Double, load5: Double, load15: Double, memoryTotal: Int, memoryAvailable: Int)
    /// A run loop's health, one reading per series (see ``LoopHealthSampler``).
    case loop([LoopReading])

    /// The kind of sample these values make.
    public var kind: SampleKind {
        switch self {
        case .position: .position
        case .hostMetrics: .hostMetrics
        case .loop: .loop
        }
    }
}
