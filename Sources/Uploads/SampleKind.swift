/// What a sample measures; stored with every sample and sent as its `kind` field.
public enum SampleKind: String, Sendable, Hashable, CaseIterable {
    /// A position on a GPS track: latitude, longitude and, when known, elevation.
    case position
    /// The host's load average and memory, read from `/proc`.
    case hostMetrics = "host_metrics"
    /// A run loop's health: timer lateness, fires, missed ticks, wake-ups, time asleep.
    case loop
}
