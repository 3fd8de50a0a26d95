/// One value of a run loop's health in a ``SampleFields/loop(_:)`` sample: a Prometheus metric
/// name, the labels that tell it apart (`mode`, `timer`, `reason`), and its value.
///
/// ```swift
/// let reading = LoopReading(
///     name: "runloop_timer_lateness_max_seconds", labels: ["mode": "default", "timer": "sampler"], value: 0.012)
/// ```
public struct LoopReading: Sendable, Hashable, Codable {
    /// The series' metric name.
    public let name: String
    /// The labels of the series besides those every series of the sample carries.
    public let labels: [String: String]
    /// The value at the time the sample was taken.
    public let value: Double

    /// A reading of `value` for the series `name` with `labels`.
    public init(name: String, labels: [String: String], value: Double) {
        self.name = name
        self.labels = labels
        self.value = value
    }
}
