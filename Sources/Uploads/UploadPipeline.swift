import Dispatch
import RunLoopKit

import struct Foundation.Date
import struct Foundation.UUID

/// Seed scene S2 on a run loop: a sample every few seconds into the durable ``Outbox``, and every
/// few minutes the unbatched samples cut into a batch and handed to a ``BatchSink``.
///
/// Both jobs are ``TimerSlot``s in the common modes by default, so scrolling (the tracking mode)
/// does not pause them (M3); they can be suspended, moved and fired like any timer. Sampling runs
/// on the loop's thread (it is memory or a `/proc` read); every outbox write and every delivery
/// runs on other threads and posts its result back to the loop. On a ``VirtualClock`` that I/O is
/// declared as external work, so virtual time waits for it and a 10-minute scene is deterministic.
///
/// The delivery side is one ``UploadMachine`` value: every answer, outbox result and timer is an
/// event, and the pipeline only performs the effects the machine returns.
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
    /// The sampling job's timer.
    public let sampling: TimerSlot
    /// The upload job's timer.
    public let uploading: TimerSlot
    /// What the pipeline is doing now: the delivery state and its counts, assembled for a panel.
    public var status: UploadStatus {
        var status = record
        status.upload = machine.state
        status.consecutiveFailures = machine.consecutiveFailures
        status.retryAt = retryTimer?.fireDate
        return status
    }
    /// Runs on the loop's thread whenever ``status`` changed.
    public var onChange: () -> Void = {}
    /// Runs on the loop's thread at every fire of a job's timer, before the job runs.
    public var onFire: (Job, TimerSlot.Fire) -> Void = { _, _ in }

    private unowned let loop: RunLoop
    private var sampler: any Sampler
    private var random: any RandomNumberGenerator
    private let io = DispatchQueue(label: "timerdeck.uploads.outbox")
    /// The pipeline, weakly, for blocks that come back to the loop's thread from other threads.
    private lazy var reference = LoopBound<() -> UploadPipeline?>({ [weak self] in self }, on: loop)
    /// The delivery side's state: the one home of what is under way, the failures and the rejections.
    private var machine = UploadMachine()
    /// What the pipeline itself observed: samples, counters, the last attempt, problems.
    private var record = UploadStatus()
    private var retryTimer: Timer?
    /// Whether ``flush()`` is running the loop (until the machine ends the flush).
    private var flushRunning = false
    /// Outbox operations and deliveries whose results have not yet reached the loop.
    private var operationsInFlight = 0
    private var settledWaiters: [() -> Void] = []

    /// A stopped pipeline on `loop`; ``start()`` schedules its jobs.
    ///
    /// `random` draws the retry jitter; tests pass a seeded generator.
    public init(
        loop: RunLoop, outbox: Outbox, sampler: any Sampler, sink: any BatchSink,
        settings: Settings = Settings(), random: any RandomNumberGenerator = SystemRandomNumberGenerator()
    ) {
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
        apply(.uploadDue)
    }

    /// Runs `body` on the loop's thread once no outbox operation or delivery is under way (at once
    /// if none is), so that what an instant started is visible before anything looks at it. For the
    /// package's headless runs and tests, not an API: a program waits for ``status`` changes instead.
    package func whenSettled(_ body: @escaping () -> Void) {
        if operationsInFlight == 0 {
            body()
        } else {
            settledWaiters.append(body)
        }
    }

    /// The slot of `job`.
    public func slot(_ job: Job) -> TimerSlot {
        job == .sample ? sampling : uploading
    }

    /// Takes one sample now and commits it to the outbox.
    public func takeSample() {
        let sample: Sample
        do {
            sample = try sampler.sample(at: wallNow)
        } catch {
            report(problem: "sampler: \(error)")
            return
        }
        let taken = loop.now
        onIO(
            { (outbox) throws(OutboxError) in try outbox.append(sample) },
            then: { [unowned self] _ in
                record.lastSampleTime = taken
                record.unsaved?.savedSince += 1
            },
            else: { [unowned self] error in
                record.unsaved = UploadStatus.Unsaved(count: (record.unsaved?.count ?? 0) + 1, error: error)
            })
    }

    /// Cuts the unbatched samples into a batch and delivers what is pending.
    ///
    /// The cut runs in a block at the end of the current pass: a sample due at the same instant
    /// is in the batch whichever of the two timers fired first (CF fires equal fire dates in the
    /// order they were last scheduled, and the sampling timer is rescheduled more often).
    public func upload() {
        loop.perform(inModes: [loop.currentMode ?? .default, .common, Self.flushMode]) { [weak self] in
            guard let self else { return }
            let now = wallNow
            onIO(
                { (outbox) throws(OutboxError) in try outbox.cutBatch(at: now) },
                then: { [unowned self] _ in apply(.uploadDue) },
                else: { [unowned self] _ in apply(.outboxFailed) })
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
        let timeout = Timer(fireAt: deadline, interval: .zero, repeats: false) { [unowned self] _ in apply(.flushEnded)
        }
        loop.add(timeout, forMode: Self.flushMode)
        flushRunning = true
        apply(.flushStarted)
        upload()
        while flushRunning, loop.now < deadline {
            loop.run(mode: Self.flushMode, until: deadline)
        }
        flushRunning = false
        timeout.invalidate()
        do {
            record.counters = try outbox.counters()
        } catch {
            report(problem: error.description)
        }
        return record.counters?.pendingSamples ?? 0
    }

    // MARK: Delivery

    /// Applies `event` to the delivery state and performs the effects it returns.
    private func apply(_ event: UploadMachine.Event) {
        for effect in machine.apply(event) {
            perform(effect)
        }
        changed()
    }

    private func perform(_ effect: UploadMachine.Effect) {
        switch effect {
        case .findNext(let skipped):
            onIO(
                { (outbox) throws(OutboxError) in try outbox.nextPendingBatch(skipping: skipped) },
                then: { [unowned self] batch in apply(.found(batch)) },
                else: { [unowned self] _ in apply(.outboxFailed) }, changesOutbox: false)
        case .deliver(let batch):
            deliver(batch)
        case .markSent(let batch):
            let now = wallNow
            onIO(
                { (outbox) throws(OutboxError) in try outbox.markSent(batch.id, at: now) },
                then: { [unowned self] _ in
                    record.deliveredThisRun += batch.samples.count
                    apply(.recorded(batch))
                },
                else: { [unowned self] _ in apply(.outboxFailed) })
        case .recordFailure(let batch, let error):
            let now = wallNow
            onIO(
                { (outbox) throws(OutboxError) in try outbox.recordFailure(batch.id, error: error, at: now) },
                then: { [unowned self] _ in apply(.recorded(batch)) },
                else: { [unowned self] _ in apply(.outboxFailed) })
        case .scheduleRetry(let attempt, let reason):
            let delay = settings.retry.delay(
                afterAttempt: attempt, retryAfter: reason.retryAfter, now: wallNow, using: &random)
            let retry = Timer(fireAt: loop.now + delay, interval: .zero, repeats: false) { [unowned self] _ in
                retryTimer = nil
                apply(.retryDue)
            }
            loop.add(retry, forMode: uploading.mode)
            retryTimer = retry
        case .cancelRetry:
            retryTimer?.invalidate()
            retryTimer = nil
        case .endFlush:
            guard flushRunning else { return }
            flushRunning = false
            loop.stop()
        }
    }

    private func deliver(_ batch: Batch) {
        let started = loop.now
        let work = loop.handle.beginExternalWork()
        let reference = reference
        let handle = loop.handle
        operationsInFlight += 1
        sink.deliver(batch) { result in
            handle.perform(inModes: [.common, Self.flushMode]) {
                guard let pipeline = reference.value() else { return }
                pipeline.answered(batch, result: result, after: started)
                pipeline.operationEnded()
            }
            work.finish()
        }
    }

    /// Keeps the attempt for the panel, then hands the answer to the delivery state.
    private func answered(_ batch: Batch, result: Result<Ack, UploadError>, after started: Instant) {
        var attempt = UploadStatus.Attempt(
            time: loop.now, sampleCount: batch.samples.count, error: nil,
            statusCode: nil, roundTrip: started.duration(to: loop.now))
        switch result {
        case .success(let ack):
            attempt.statusCode = ack.statusCode
        case .failure(let error):
            attempt.error = error
            if !error.isRetryable {
                record.refused = UploadStatus.Refused(
                    count: (record.refused?.count ?? 0) + batch.samples.count, error: error)
            }
            if case .rejected(let code, _) = error { attempt.statusCode = code }
            if case .serverUnavailable(let code, _) = error { attempt.statusCode = code }
        }
        record.lastAttempt = attempt
        apply(.answered(batch, result))
    }

    // MARK: Outbox I/O

    /// Runs `work` on the outbox's thread, then `then` with its result back on the loop's thread;
    /// a failure is reported in ``status`` and passed to `else`. When `work` `changesOutbox`, the
    /// counters in ``status`` are read afresh on that thread; a read leaves them as the last write did.
    private func onIO<Value: Sendable>(
        _ work: @escaping @Sendable (Outbox) throws(OutboxError) -> Value,
        then: @escaping (Value) -> Void,
        else failed: @escaping (OutboxError) -> Void = { _ in },
        changesOutbox: Bool = true
    ) {
        let outbox = outbox
        let handle = loop.handle
        let external = handle.beginExternalWork()
        let continuation = LoopBound(then, on: loop)
        let failure = LoopBound(failed, on: loop)
        let reference = reference
        operationsInFlight += 1
        io.async {
            let result = Result { () throws(OutboxError) -> (Value, OutboxCounters?) in
                let value = try work(outbox)
                return (value, changesOutbox ? try outbox.counters() : nil)
            }
            handle.perform(inModes: [.common, Self.flushMode]) {
                guard let pipeline = reference.value() else { return }
                switch result {
                case .success(let (value, counters)):
                    if let counters { pipeline.record.counters = counters }
                    pipeline.record.problem = nil
                    continuation.value(value)
                case .failure(let error):
                    pipeline.report(problem: error.description)
                    failure.value(error)
                }
                pipeline.changed()
                pipeline.operationEnded()
            }
            external.finish()
        }
    }

    /// An operation's result has been handled (which may have started the next one).
    private func operationEnded() {
        operationsInFlight -= 1
        guard operationsInFlight == 0, !settledWaiters.isEmpty else { return }
        let waiters = settledWaiters
        settledWaiters = []
        for waiter in waiters { waiter() }
    }

    private func report(problem: String) {
        record.problem = problem
        changed()
    }

    private func changed() {
        onChange()
    }

    /// Now on the loop's wall clock (virtual in tests and headless runs).
    private var wallNow: Date {
        Date(timeIntervalSince1970: Double(loop.clock.now(.wall).nanoseconds) / 1e9)
    }
}
