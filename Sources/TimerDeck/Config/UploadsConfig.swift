import RunLoopKit
import Uploads

/// The `[uploads]` section: what is sampled, how often, and where batches go (S2).
package struct UploadsConfig: Equatable, Sendable {
    /// What takes the samples.
    package enum SamplerChoice: String, Equatable, Sendable {
        /// Walks a GPX track (the shipped route by default).
        case route
        /// Load average and memory from `/proc`.
        case host
        /// The run loop's own health (``LoopHealthSampler``): lateness by timer name, fires,
        /// missed ticks, wake-ups, share asleep.
        case loop
    }

    /// What the bodies of HTTP uploads are.
    package enum SinkChoice: String, Equatable, Sendable {
        /// The batch as JSON (the loopback collector's form).
        case json
        /// A Prometheus remote-write request (Prometheus, VictoriaMetrics, Mimir, Thanos, Cortex).
        case prometheus
    }

    /// The sampler.
    package var sampler: SamplerChoice = .route
    /// The GPX track the route sampler replays; `nil` for the shipped `Resources/route.gpx`.
    package var routePath: String?
    /// Where batches are POSTed; `nil` writes them into the uploads directory instead.
    package var url: String?
    /// What `url` receives; a `prometheus+http(s)://` URL means ``SinkChoice/prometheus`` whatever this says.
    package var sink: SinkChoice = .json
    /// The `instance` label of remote-written series; `nil` for the host name.
    package var instance: String?
    /// The `job` label of remote-written series.
    package var job = "timerdeck"
    /// Further labels on every remote-written series.
    package var labels: [String: String] = [:]
    /// How long an HTTP delivery may take before it counts as timed out (and is retried).
    package var httpTimeout: Duration = .seconds(10)
    /// Intervals, modes, flush bound and backoff.
    package var pipeline = UploadPipeline.Settings()
    /// How long the outbox keeps acknowledged samples (default: seven days).
    package var retention = OutboxRetention.sevenDays

    /// `uploads.keep_delivered`: how long acknowledged samples are kept (the retention's age).
    var keepDelivered: Duration {
        get { retention.age ?? OutboxRetention.sevenDays.age ?? .zero }
        set { retention.age = newValue }
    }
    /// `uploads.keep_delivered_count`: at most this many acknowledged samples are kept; 0 sets no limit.
    var keepDeliveredCount: Int {
        get { retention.count ?? 0 }
        set { retention.count = newValue == 0 ? nil : newValue }
    }

    /// The defaults of seed S2.
    package init() {}
}
