import RunLoopKit

/// What the upload pipeline is doing, for a panel: counts, the last sample and upload, retries.
public struct UploadStatus: Sendable {
    /// The outcome of one delivery attempt.
    public struct Attempt: Sendable {
        /// When the answer came, on the loop's uptime clock.
        public var time: Instant
        /// The batch's samples.
        public var sampleCount: Int
        /// `nil` when acknowledged; otherwise the error shown to the user.
        public var error: UploadError?
        /// The HTTP status of the answer, when there was one.
        public var statusCode: Int?
        /// From hand-over to the sink to its answer, on the loop's clock.
        public var roundTrip: Duration
    }

    /// Samples taken that the outbox could not commit, and the last reason.
    public struct Unsaved: Sendable {
        /// How many samples were lost since the start.
        public var count: Int
        /// Why the last one could not be committed.
        public var error: OutboxError
        /// Samples committed since the last one that could not be: more than 0 says saving works again.
        public var savedSince = 0
    }

    /// Samples the server refused this run (a permanent rejection, e.g. samples older than a
    /// time-series database accepts), and the last reason.
    ///
    /// A batch refused for its credentials is tried again by the next upload: its samples count
    /// once however often it is refused, and ``attempts`` says how often that was.
    public struct Refused: Sendable {
        /// How many samples the server refused this run, each counted once.
        public var count: Int
        /// The batches they were in.
        public var batches: Int
        /// The deliveries the server refused: ``batches`` or more, as a refused batch may go again.
        public var attempts: Int
        /// The server's answer to the last refused batch.
        public var error: UploadError

        /// `count` samples in `batches` batches refused in `attempts` deliveries, the last with `error`.
        public init(count: Int, batches: Int = 1, attempts: Int? = nil, error: UploadError) {
            self.count = count
            self.batches = batches
            self.attempts = attempts ?? batches
            self.error = error
        }

        /// "7 samples refused (1 batch, 3 attempts)".
        public var summary: String {
            "\(count) sample\(count == 1 ? "" : "s") refused (\(batches) batch\(batches == 1 ? "" : "es"), "
                + "\(attempts) attempt\(attempts == 1 ? "" : "s"))"
        }
    }

    /// The outbox totals as of the last write.
    public var counters: OutboxCounters?
    /// When the last committed sample was taken, on the loop's uptime clock.
    public var lastSampleTime: Instant?
    /// The last delivery attempt.
    public var lastAttempt: Attempt?
    /// What the delivery side is doing.
    public var upload = UploadMachine.State.idle
    /// Failed attempts since the last success.
    public var consecutiveFailures = 0
    /// When the next retry is due while backing off.
    public var retryAt: Instant?
    /// Whether a batch is with the sink right now.
    public var isDelivering: Bool {
        if case .delivering = upload { true } else { false }
    }
    /// The last problem with the sampler or the outbox; cleared by the next success.
    public var problem: String?
    /// Samples this run could not commit; never cleared, so a lost sample never goes unnoticed.
    public var unsaved: Unsaved?
    /// Samples in batches the server refused this run; they stay in the outbox, skipped until the next start.
    public var refused: Refused?
    /// Samples this process delivered (acknowledged by the sink and recorded in the outbox).
    public var deliveredThisRun = 0
}
