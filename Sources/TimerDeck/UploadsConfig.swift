import RunLoopKit
import Uploads

/// The `[uploads]` section: what is sampled, how often, and where batches go (S2).
public struct UploadsConfig: Equatable, Sendable {
    /// What takes the samples.
    public enum SamplerChoice: String, Equatable, Sendable {
        /// Walks a GPX track (the shipped route by default).
        case route
        /// Load average and memory from `/proc`.
        case host
    }

    /// The sampler.
    public var sampler: SamplerChoice = .route
    /// The GPX track the route sampler replays; `nil` for the shipped `Resources/route.gpx`.
    public var routePath: String?
    /// Where batches are POSTed; `nil` writes them into the uploads directory instead.
    public var url: String?
    /// How long an HTTP delivery may take before it counts as timed out (and is retried).
    public var httpTimeout: Duration = .seconds(10)
    /// Intervals, modes, flush bound and backoff.
    public var pipeline = UploadPipeline.Settings()
    /// How long the outbox keeps acknowledged samples (default: seven days).
    public var retention = OutboxRetention.sevenDays

    /// `uploads.keep_delivered`: an hour to a year.
    static let keepDeliveredRange: ClosedRange<Duration> = .seconds(3_600) ... .seconds(8_760 * 3_600)
    /// `uploads.keep_delivered_count`: 0 (no count limit) to a billion samples.
    static let keepDeliveredCountRange = 0...1_000_000_000

    /// The defaults of seed S2.
    public init() {}

    mutating func read(_ reader: inout FieldReader) throws(ConfigError) {
        if let name = try reader.string("uploads.sampler", accepted: "\"route\" or \"host\"", { SamplerChoice(rawValue: $0) != nil }) {
            sampler = SamplerChoice(rawValue: name)!
        }
        if let path = try reader.string("uploads.route", accepted: "a path to a GPX file", { !$0.isEmpty }) { routePath = path }
        if let address = try reader.string("uploads.url", accepted: "\"\" or an http(s) URL") { url = address.isEmpty ? nil : address }
        if let timeout = try reader.duration("uploads.timeout", in: Config.httpTimeoutRange) { httpTimeout = timeout }
        if let interval = try reader.duration("uploads.sample_interval", in: Config.sampleIntervalRange) {
            pipeline.sampleInterval = interval
        }
        if let interval = try reader.duration("uploads.upload_interval", in: Config.uploadIntervalRange) {
            pipeline.uploadInterval = interval
        }
        if let mode = try reader.mode("uploads.mode") { pipeline.mode = mode }
        if let flush = try reader.duration("uploads.flush_timeout", in: Config.flushRange) { pipeline.flushTimeout = flush }
        if let base = try reader.duration("uploads.retry_base", in: Config.retryRange) { pipeline.retry.base = base }
        if let cap = try reader.duration("uploads.retry_cap", in: Config.retryRange) { pipeline.retry.cap = cap }
        if let age = try reader.duration("uploads.keep_delivered", in: Self.keepDeliveredRange) { retention.age = age }
        if let count = try reader.integer("uploads.keep_delivered_count", in: Self.keepDeliveredCountRange) {
            retention.count = count == 0 ? nil : count
        }
        let retry = pipeline.retry
        guard retry.base <= retry.cap else {
            throw ConfigError(message: "\(reader.source): uploads.retry_base (\(DurationText.setting(retry.base))) is longer than "
                + "uploads.retry_cap (\(DurationText.setting(retry.cap))); the first retry cannot wait longer than the longest, "
                + "so lower retry_base or raise retry_cap")
        }
    }
}
