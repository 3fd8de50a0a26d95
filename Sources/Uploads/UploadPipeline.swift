import Dispatch
import RunLoopKit
import TimeUnits
import TimerSlots

import class CoreMetrics.Counter
import protocol CoreMetrics.MetricsFactory
import struct Foundation.Date
import struct Foundation.UUID

/// Seed scene S2 on a run loop: a sample every few seconds into the durable ``Outbox``, and every
/// few minutes the unbatched samples cut into a batch and handed to a ``BatchSink``.
///
/// Both jobs are run loop timers in the common modes by default, so scrolling (the tracking mode)
/// does not pause them (M3); a program starts, stops, pauses, moves and runs them by ``Job``
/// (``start(_:in:)``, ``pause(_:)``, ``move(_:to:)``, ``runNow(_:)`` …). Sampling runs
/// on the loop's thread (it is memory or a `/proc` read); every outbox write and every delivery
/// runs on other threads and posts its result back to the loop. On a ``VirtualClock`` that I/O is
/// declared as external work, so virtual time waits for it and a 10-minute scene is deterministic.
///
/// All of its state is one ``UploadMachine`` value: every sample, answer, outbox result and timer
/// is an event, and the pipeline only performs the effects the machine returns. Each outbox
/// operation crosses to the outbox's thread and back once, and its write returns the totals the
/// panel shows; the batch just cut goes to the sink as it is, unless an older one waits.
///
/// A batch is marked sent only after the sink acknowledged it. Retryable failures back off
/// (``RetryPolicy``, honouring `Retry-After`); a batch the server rejects stays in the outbox with
/// its error and is skipped until the next start. ``flush()`` gives pending batches a bounded last
/// chance before quitting; what is not acknowledged goes out on the next start.
///
/// ```swift
/// let pipeline = UploadPipeline(loop: .current, outbox: try Outbox(), sampler: try RouteReplay(contentsOf: gpx),
///                               sink: DirectorySink())
/// pipeline.start()
/// RunLoop.current.run(until: .distantFuture)
/// ```
public final class UploadPipeline {
    /// Intervals, modes and limits.
    public struct Settings: Sendable, Equatable {
        /// Time between samples (S2: 5 s).
        public var sampleInterval: Duration = .seconds(5)
        /// Time between uploads (S2: 5 min).
        public var uploadInterval: Duration = .seconds(300)
        /// The mode the sampling job starts in (S2, M3: the common modes).
        public var sampleMode: RunLoop.Mode = .common
        /// The mode the upload job starts in (S2, M3: the common modes).
        public var uploadMode: RunLoop.Mode = .common
        /// The longest ``flush()`` waits for pending batches.
        public var flushTimeout: Duration = .seconds(3)
        /// Backoff after failed deliveries.
        public var retry = RetryPolicy()

        /// The defaults of seed S2.
        public init() {}
    }

    /// One of the two jobs.
    public enum Job: String, Sendable, CaseIterable {
        case sample, upload
    }

    /// The mode ``flush()`` runs the loop in; results of I/O are handled in it and in the common modes.
    public static let flushMode = RunLoop.Mode("timerdeck.uploads.flush")

    /// The durable queue of samples.
    public let outbox: Outbox
    /// Where batches go.
    public let sink: any BatchSink
    /// The settings in force.
    public let settings: Settings
    /// What the pipeline is doing now, assembled for a panel.
    public var status: UploadStatus { machine.status }
    /// Runs on the loop's thread whenever ``status`` changed.
    public var onChange: () -> Void = {}
    /// Runs on the loop's thread at every run of a job (by its timer or ``runNow(_:)``), before the job runs.
    package var onFire: (Job, TimerSlot.Fire) -> Void = { _, _ in }
    /// Times the pipeline crossed between the loop's thread and another (the outbox's or the
    /// sink's), there and back counted as two.
    public private(set) var threadCrossings = 0

    private unowned let loop: RunLoop
    private let sampling: TimerSlot
    private let uploading: TimerSlot
    private var sampler: any Sampler
    private var random: any RandomNumberGenerator
    private let io = DispatchQueue(label: "timerdeck.uploads.outbox")
    /// The pipeline, weakly, for blocks that come back to the loop's thread from other threads.
    private lazy var reference = LoopBound<() -> UploadPipeline?>({ [weak self] in self }, on: loop)
    /// The one home of the pipeline's state.
    private var machine = UploadMachine()
    /// The timer of the machine's retry (its deadline is the machine's).
    private var retryTimer: Timer?
    /// Whether the upload timer fires by hand (``runNow(_:)``) rather than on its schedule.
    private var uploadAskedFor = false
    private var settledWaiters: [() -> Void] = []
    /// Counts, in the loop's health metrics, the samples the outbox's size cap dropped in this run.
    private let droppedSamples: CoreMetrics.Counter?
    /// The outbox's count of dropped samples when this run last looked (its first reading is the baseline).
    private var droppedSeen: Int?
    /// Events sent while another event's effects are performed, in order (see ``apply(_:)``).
    private var queuedEvents: [UploadMachine.Event] = []
    /// Whether ``apply(_:)`` is performing an event's effects now.
    private var isApplying = false

    /// A stopped pipeline on `loop`; ``start()`` schedules its jobs.
    ///
    /// `random` draws the retry jitter; tests pass a seeded generator. With `metrics` (the loop's
    /// health, ``LoopHealthSampler``), the samples the outbox's size cap drops are counted there
    /// as `dropped_samples` (read as `dropped_samples_total`).
    public init(
        loop: RunLoop, outbox: Outbox, sampler: any Sampler, sink: any BatchSink,
        settings: Settings = Settings(), random: any RandomNumberGenerator = SystemRandomNumberGenerator(),
        metrics: (any MetricsFactory)? = nil
    ) {
        droppedSamples = metrics.map { CoreMetrics.Counter(label: "dropped_samples", dimensions: [], factory: $0) }
        self.loop = loop
        self.outbox = outbox
        self.sampler = sampler
        self.sink = sink
        self.settings = settings
        self.random = random
        sampling = TimerSlot(interval: settings.sampleInterval, mode: settings.sampleMode, loop: loop)
        uploading = TimerSlot(interval: settings.uploadInterval, mode: settings.uploadMode, loop: loop)
        sampling.metricsName = "uploads.sample"
        uploading.metricsName = "uploads.upload"
        sampling.onFire = { [unowned self] fire in
            onFire(.sample, fire)
            takeSample()
        }
        uploading.onFire = { [unowned self] fire in
            onFire(.upload, fire)
            upload()
        }
    }

    deinit {
        retryTimer?.invalidate()
        sampling.stop()
        uploading.stop()
    }

    /// Starts both jobs (sampling first, so a sample due with an upload is in its batch) and sends
    /// the batches a previous run left behind.
    public func start() {
        sampling.start()
        uploading.start()
        apply(.started)
    }

    /// Runs `body` on the loop's thread once no outbox operation or delivery is under way (at once
    /// if none is), so that what an instant started is visible before anything looks at it. For the
    /// package's headless runs and tests, not an API: a program waits for ``status`` changes instead.
    package func whenSettled(_ body: @escaping () -> Void) {
        if machine.operationsInFlight == 0 {
            body()
        } else {
            settledWaiters.append(body)
        }
    }

    // MARK: The jobs

    /// Starts `job` (again) in `mode`, or in the mode it is in; it first runs one interval from now,
    /// or `firstRunAfter` from now.
    public func start(_ job: Job, in mode: RunLoop.Mode? = nil, firstRunAfter: Duration? = nil) {
        let slot = slot(job)
        if let mode, mode != slot.mode { slot.move(to: mode) }
        slot.firstFireDelay = firstRunAfter
        slot.start()
    }

    /// Stops `job`; ``start(_:in:firstRunAfter:)`` starts it again.
    public func stop(_ job: Job) { slot(job).stop() }

    /// Holds `job` where it is, keeping the time left to its next run.
    public func pause(_ job: Job) {
        if !slot(job).isSuspended { slot(job).suspendOrResume() }
    }

    /// Lets a paused `job` go on with the time it had left.
    public func resume(_ job: Job) {
        if slot(job).isSuspended { slot(job).suspendOrResume() }
    }

    /// Moves `job` to `mode`, keeping its next run (M3: the tracking mode pauses a default-mode job).
    public func move(_ job: Job, to mode: RunLoop.Mode) { slot(job).move(to: mode) }

    /// Runs `job` now, outside its schedule: a sample, or an upload, which does not wait for a
    /// retry's backoff; ``onFire`` reports it as a run by hand.
    public func runNow(_ job: Job) {
        uploadAskedFor = job == .upload
        slot(job).fireNow()
        uploadAskedFor = false
    }

    /// The next scheduled run of `job` on the loop's uptime clock; nil when stopped or paused.
    public func nextRun(of job: Job) -> Instant? { slot(job).nextFire }

    /// The mode `job` runs in.
    public func mode(of job: Job) -> RunLoop.Mode { slot(job).mode }

    private func slot(_ job: Job) -> TimerSlot {
        job == .sample ? sampling : uploading
    }

    /// Takes one sample and commits it to the outbox.
    private func takeSample() {
        do {
            apply(.sampled(try sampler.sample(at: wallNow), at: loop.now))
        } catch {
            apply(.samplerFailed(problem: "sampler: \(error)"))
        }
    }

    /// Cuts the unbatched samples into a batch and delivers what is pending.
    ///
    /// The cut runs in a block at the end of the current pass: a sample due at the same instant
    /// is in the batch whichever of the two timers fired first (CF fires equal fire dates in the
    /// order they were last scheduled, and the sampling timer is rescheduled more often).
    private func upload() {
        let event: UploadMachine.Event = uploadAskedFor ? .uploadAskedFor : .uploadDue
        loop.perform(inModes: [loop.currentMode ?? .default, .common, Self.flushMode]) { [weak self] in
            self?.apply(event)
        }
    }

    /// Stops sampling, cuts a last batch and delivers every pending batch once, for at most
    /// ``Settings/flushTimeout``, running the loop in ``flushMode``; returns the samples left in the outbox.
    ///
    /// When the outbox cannot be read at the end, ``UploadStatus/problem`` says why and the count is
    /// the last one read.
    @discardableResult
    public func flush() -> Int {
        sampling.stop()
        uploading.stop()
        let deadline = loop.now + settings.flushTimeout
        let timeout = Timer(fireAt: deadline, interval: .zero, repeats: false) { [unowned self] _ in
            apply(.flushEnded)
        }
        loop.add(timeout, forMode: Self.flushMode)
        apply(.flushStarted)
        while machine.isFlushUnderWay, loop.now < deadline {
            loop.run(mode: Self.flushMode, until: deadline)
        }
        timeout.invalidate()
        apply(.flushEnded)
        apply(.counted(Result { () throws(OutboxError) in try outbox.counters() }))
        return machine.counters?.pendingSamples ?? 0
    }

    // MARK: Effects

    /// Applies `event` to the state and performs the effects it returns; then tells ``onChange``.
    ///
    /// An event that an effect sends back at once (``UploadMachine/Event/retryScheduled(at:)``,
    /// from ``UploadMachine/Effect/scheduleRetry(attempt:reason:)``) waits in ``queuedEvents`` until
    /// every effect of the event before it is performed, and ``onChange`` hears of both once.
    private func apply(_ event: UploadMachine.Event) {
        queuedEvents.append(event)
        guard !isApplying else { return }
        isApplying = true
        while !queuedEvents.isEmpty {
            for effect in machine.apply(queuedEvents.removeFirst()) {
                perform(effect)
            }
        }
        isApplying = false
        countDropped()
        changed()
        guard machine.operationsInFlight == 0, !settledWaiters.isEmpty else { return }
        let waiters = settledWaiters
        settledWaiters = []
        for waiter in waiters { waiter() }
    }

    /// Adds what the size cap dropped since the last look to ``droppedSamples``.
    private func countDropped() {
        guard let dropped = machine.counters?.droppedSamples else { return }
        if let seen = droppedSeen, dropped > seen { droppedSamples?.increment(by: Int64(dropped - seen)) }
        droppedSeen = dropped
    }

    private func perform(_ effect: UploadMachine.Effect) {
        let now = wallNow
        switch effect {
        case .append(let sample, let takenAt):
            onIO(effect) { (outbox) throws(OutboxError) in
                .appended(takenAt: takenAt, try outbox.append(sample).counters)
            }
        case .cutBatch(let lookup):
            onIO(effect) { (outbox) throws(OutboxError) in
                let cut = try outbox.cutBatch(at: now)
                guard let skipped = lookup else { return .cut(cut.counters, .notAsked) }
                // The batch just cut goes as it is, unless an older one (not skipped) waits.
                let older = try outbox.nextPendingBatch(skipping: skipped.union(cut.value.map { [$0.id] } ?? []))
                return .cut(cut.counters, .found(older ?? cut.value))
            }
        case .findNext(let skipped):
            onIO(effect) { (outbox) throws(OutboxError) in .found(try outbox.nextPendingBatch(skipping: skipped)) }
        case .deliver(let batch):
            deliver(batch)
        case .markSent(let batch, let lookup):
            onIO(effect) { (outbox) throws(OutboxError) in
                let marked = try outbox.markSent(batch.id, at: now)
                return .recorded(batch, marked.counters, .found(try outbox.nextPendingBatch(skipping: lookup)))
            }
        case .recordFailure(let batch, let error, let lookup):
            onIO(effect) { (outbox) throws(OutboxError) in
                let recorded = try outbox.recordFailure(batch.id, error: error, at: now)
                guard let lookup else { return .recorded(batch, recorded.counters, .notAsked) }
                return .recorded(batch, recorded.counters, .found(try outbox.nextPendingBatch(skipping: lookup)))
            }
        case .scheduleRetry(let attempt, let reason):
            let delay = settings.retry.delay(
                afterAttempt: attempt, retryAfter: reason.retryAfter, now: now, using: &random)
            let retry = Timer(fireAt: loop.now + delay, interval: .zero, repeats: false) { [unowned self] _ in
                retryTimer = nil
                apply(.retryDue)
            }
            loop.add(retry, forMode: uploading.mode)
            retryTimer = retry
            apply(.retryScheduled(at: retry.fireDate))
        case .cancelRetry:
            retryTimer?.invalidate()
            retryTimer = nil
        case .endFlush:
            // Only the flush's own run is stopped: the machine ends a flush once.
            if loop.currentMode == Self.flushMode { loop.stop() }
        }
    }

    private func deliver(_ batch: Batch) {
        let started = loop.now
        let work = loop.handle.beginExternalWork()
        let reference = reference
        let handle = loop.handle
        threadCrossings += 1
        sink.deliver(batch) { result in
            handle.perform(inModes: [.common, Self.flushMode]) {
                guard let pipeline = reference.value() else { return }
                pipeline.threadCrossings += 1
                let now = pipeline.loop.now
                pipeline.apply(.answered(batch, result, at: now, roundTrip: started.duration(to: now)))
            }
            work.finish()
        }
    }

    /// Runs `work` on the outbox's thread (one transaction, or a write and the lookup that follows
    /// it), then applies the event it returns back on the loop's thread, or
    /// ``UploadMachine/Event/outboxFailed(_:during:)``.
    private func onIO(
        _ effect: UploadMachine.Effect,
        _ work: @escaping @Sendable (Outbox) throws(OutboxError) -> UploadMachine.Event
    ) {
        let outbox = outbox
        let handle = loop.handle
        let external = handle.beginExternalWork()
        let reference = reference
        threadCrossings += 1
        io.async {
            let result = Result { () throws(OutboxError) in try work(outbox) }
            handle.perform(inModes: [.common, Self.flushMode]) {
                guard let pipeline = reference.value() else { return }
                pipeline.threadCrossings += 1
                switch result {
                case .success(let event): pipeline.apply(event)
                case .failure(let error): pipeline.apply(.outboxFailed(error, during: effect))
                }
            }
            external.finish()
        }
    }

    private func changed() {
        onChange()
    }

    /// Now on the loop's wall clock (virtual in tests and headless runs).
    private var wallNow: Date {
        Date(timeIntervalSince1970: Nanoseconds.seconds(loop.timeSource.now(.wall).nanoseconds))
    }
}
