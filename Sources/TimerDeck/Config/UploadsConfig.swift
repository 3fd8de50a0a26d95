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
    /// `uploads.username`: the basic-auth user, with ``passwordFile``.
    package var username: String?
    /// `uploads.password_file`: the file holding the basic-auth password (Prometheus's
    /// `basic_auth.password_file`); read at each delivery.
    package var passwordFile: String?
    /// `uploads.bearer_token_file`: the file holding a bearer token (Prometheus's
    /// `authorization.credentials_file`); read at each delivery.
    package var bearerTokenFile: String?
    /// `uploads.bearer_token_env`: the environment variable holding a bearer token, read once at
    /// start and then removed from the environment (so no hook inherits it).
    package var bearerTokenEnvironment: String?
    /// Token variables the config file named and a command-line option replaced: unused, but still
    /// credentials that no child gets.
    package var replacedTokenEnvironments: [String] = []
    /// `uploads.headers`: further request headers, e.g. `X-Scope-OrgID` for a Mimir tenant.
    package var headers: [String: String] = [:]
    /// `uploads.ca_file`: the certificate authorities to trust, instead of the system's.
    package var caFile: String?
    /// `uploads.cert_file`: a client certificate, with ``keyFile``.
    package var certFile: String?
    /// `uploads.key_file`: the client certificate's private key.
    package var keyFile: String?
    /// `uploads.insecure_skip_verify`: accept any server certificate.
    package var insecureSkipVerify = false
    /// `uploads.allow_plain_http`: send credentials over `http://` to a host off loopback.
    package var allowPlainHTTP = false
    /// How long an HTTP delivery may take before it counts as timed out (and is retried).
    package var httpTimeout: Duration = .seconds(10)
    /// `uploads.confirm_url`: the store behind a relay, where each remote-written batch is read
    /// back by PromQL before it counts as delivered; `nil` trusts the receiver's acknowledgement.
    package var confirmURL: String?
    /// `uploads.confirm_within`: how long the store may take to show a batch before it is sent again.
    package var confirmWithin: Duration = .seconds(30)
    /// `uploads.fallback_url`: where a batch goes once two deliveries of it have failed (the store's
    /// own receiver, past the relay of ``url``); `nil` for none.
    package var fallbackURL: String?
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

    /// `uploads.outbox_cap_mb`: the most the outbox's database may hold, in megabytes (10^6 bytes);
    /// 0 (the default) sets no cap. Over it the oldest samples are dropped, and counted.
    package var outboxCapMegabytes = 0

    /// The outbox's size cap in bytes, or nil for none.
    package var outboxSizeCap: Int64? {
        outboxCapMegabytes == 0 ? nil : Int64(outboxCapMegabytes) * 1_000_000
    }

    /// The defaults of seed S2.
    package init() {}
}
