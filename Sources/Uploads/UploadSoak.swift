import RunLoopKit

/// Runs an ``UploadPipeline`` for simulated days on a virtual clock and measures what a month
/// of uptime would do to it: the real cost per sample, the cost of the status query and the size
/// of the outbox file, day by day.
///
/// Time is virtual (a 30-day run takes minutes, not a month), the rest is real: the outbox is an
/// SQLite file with every commit synced, and the sink is whatever the caller passes (the loopback
/// collector in the benchmark and the tests).
///
/// ```swift
/// let soak = UploadSoak(outbox: try Outbox(url: url), sampler: route, sink: try HTTPSink(endpoint: url, timeout: .seconds(10)))
/// soak.run(days: 30) { day in print(day.day, day.sampleCost, day.statusQuery, day.fileSize) }
/// ```
public struct UploadSoak {
    /// The figures at the end of one simulated day.
    public struct Day: Sendable {
        /// 1 for the first day.
        public let day: Int
        /// Real time spent running the day, divided by the samples it took (sampling, committing,
        /// uploading and the status refresh after each of them).
        public let sampleCost: Duration
        /// The median real time of one ``Outbox/counters()`` call at the end of the day.
        public let statusQuery: Duration
        /// The database's size as SQLite sees it (``Outbox/databaseSize()``), in bytes.
        public let databaseSize: Int64
        /// The outbox file on disk, in bytes (what checkpoints have written of the database).
        public let fileSize: Int64
        /// Its write-ahead log, in bytes (bounded by the outbox's `journal_size_limit` after checkpoints).
        public let logSize: Int64
        /// The outbox totals at the end of the day.
        public let counters: OutboxCounters
        /// Samples the outbox could not commit so far (a soak expects none).
        public let unsaved: Int
    }

    /// The outbox the pipeline writes.
    public let outbox: Outbox
    private let sampler: any Sampler
    private let sink: any BatchSink
    private let settings: UploadPipeline.Settings
    private let simulatedDay: Duration

    /// A soak of `outbox`, `sampler` and `sink` with the S2 intervals unless `settings` says
    /// otherwise; `simulatedDay` shortens the "day" a figure is taken at (tests).
    public init(
        outbox: Outbox, sampler: any Sampler, sink: any BatchSink,
        settings: UploadPipeline.Settings = .init(), simulatedDay: Duration = .seconds(86_400)
    ) {
        self.outbox = outbox
        self.sampler = sampler
        self.sink = sink
        self.settings = settings
        self.simulatedDay = simulatedDay
    }

    /// Runs `days` simulated days, calling `report` at the end of each (on this thread), then
    /// flushes the pipeline; returns the samples left in the outbox.
    ///
    /// Must run on a thread that has no run loop running (it runs its own, virtual, loop).
    /// - Throws: the ``OutboxError`` of a status query that failed.
    @discardableResult
    public func run(days: Int, report: (Day) -> Void) throws(OutboxError) -> Int {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        let pipeline = UploadPipeline(loop: loop, outbox: outbox, sampler: sampler, sink: sink, settings: settings)
        pipeline.start()
        let wall = ContinuousClock()
        let samplesPerDay = max(Int(simulatedDay / settings.sampleInterval), 1)
        for day in 1...max(days, 1) {
            let started = wall.now
            // Half a sample interval past the day's end, so the day's last sample is in.
            loop.run(mode: .default, until: Instant.zero + simulatedDay * day + settings.sampleInterval / 2)
            let spent = started.duration(to: wall.now)
            let statusQuery = try medianStatusQuery()
            let sizes = outbox.fileSizes()
            report(
                Day(
                    day: day, sampleCost: spent / samplesPerDay, statusQuery: statusQuery,
                    databaseSize: try outbox.databaseSize(), fileSize: sizes.database,
                    logSize: sizes.log, counters: try outbox.counters(), unsaved: pipeline.status.unsaved?.count ?? 0))
        }
        return pipeline.flush()
    }

    /// The median of 21 timed status queries.
    private func medianStatusQuery() throws(OutboxError) -> Duration {
        let wall = ContinuousClock()
        var times: [Duration] = []
        for _ in 0..<21 {
            let started = wall.now
            _ = try outbox.counters()
            times.append(started.duration(to: wall.now))
        }
        return times.sorted()[times.count / 2]
    }
}
