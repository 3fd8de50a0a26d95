import RunLoopKit

import struct Foundation.UUID

/// The upload pipeline's state, all of it, as one value: what the delivery side is doing, the
/// failures in a row, the batches skipped as rejected, the retry deadline, the flush, the outbox
/// operations under way and every count the panel shows. ``apply(_:)`` takes an event (a fact: a
/// sample taken, an outbox result, a sink's answer, a timer) and returns the effects the driver
/// (``UploadPipeline``) performs: outbox operations, a delivery, a retry timer, the end of a flush.
///
/// Each outbox effect is one transaction on the outbox's thread and comes back as one event, with
/// the totals the write left and, where the machine asks for it, the next batch to send: a sample
/// is one crossing there and back, and so is each step of a batch (cut, delivery, record).
///
/// A pure value with no clock, outbox or sink, so every transition is testable on its own:
///
/// ```swift
/// var machine = UploadMachine()
/// machine.apply(.uploadDue)                              // [.cutBatch(lookup: [])]
/// machine.apply(.cut(counters, .found(batch)))           // [.deliver(batch)]: the batch just cut, as it is
/// machine.apply(.answered(batch, .success(ack), at: now, roundTrip: .milliseconds(40)))
///                                                        // [.markSent(batch, lookup: [])]
/// machine.apply(.recorded(batch, counters, .found(nil))) // []: nothing left, idle
/// ```
public struct UploadMachine: Sendable {
    /// What the delivery side is doing. Exactly one thing at a time: a batch is never fetched,
    /// delivered or recorded twice at once.
    public enum State: Sendable, Equatable {
        /// Nothing under way; the next upload or start looks for a pending batch.
        case idle
        /// An outbox operation is looking for the oldest pending batch.
        case finding
        /// The batch is with the sink.
        case delivering(Batch)
        /// Writing the sink's answer (an ack, or the failure) to the outbox.
        case recording(Batch, failure: UploadError?)
        /// Waiting for the retry timer after `attempt` failures in a row; `reason` is the last.
        case backingOff(attempt: Int, reason: UploadError)
        /// A flush ended (nothing left, a failure, or its deadline): nothing more goes out.
        case finished
    }

    /// What an outbox operation found when the machine asked it for the next batch to send.
    public enum Lookup: Sendable, Equatable {
        /// The operation was not asked to look.
        case notAsked
        /// The oldest pending batch not skipped, or nil when there is none.
        case found(Batch?)
    }

    /// Something that happened to the pipeline.
    public enum Event: Sendable {
        /// The pipeline started: send what a previous run left in the outbox.
        case started
        /// The sampler gave `sample`, taken at `at` on the loop's clock.
        case sampled(Sample, at: Instant)
        /// The sampler failed; `problem` says why.
        case samplerFailed(problem: String)
        /// The sample taken at `takenAt` is committed; the outbox's totals after it.
        case appended(takenAt: Instant, OutboxCounters)
        /// The upload job fired, or an upload was asked for: cut a batch and send what is pending.
        case uploadDue
        /// A batch was cut (or there was nothing to cut); the totals after it and the lookup.
        case cut(OutboxCounters, Lookup)
        /// The outbox's oldest pending batch not skipped, or nil when there is none.
        case found(Batch?)
        /// The sink answered for `batch` at `at` (the loop's clock), `roundTrip` after the hand-over.
        case answered(Batch, Result<Ack, UploadError>, at: Instant, roundTrip: Duration)
        /// The outbox recorded the answer for `batch`; the totals after it and the lookup.
        case recorded(Batch, OutboxCounters, Lookup)
        /// The outbox operation `during` failed (an append: the sample is lost, and counted).
        case outboxFailed(OutboxError, during: Effect)
        /// The retry timer ``Effect/scheduleRetry(attempt:reason:)`` asked for is set for `at`.
        case retryScheduled(at: Instant)
        /// The retry timer fired.
        case retryDue
        /// An upload asked for by hand: like ``uploadDue``, but a retry waiting out its backoff
        /// goes now.
        case uploadAskedFor
        /// Quitting: cut a last batch and give pending batches one more chance, until ``flushEnded``.
        case flushStarted
        /// The flush's deadline passed.
        case flushEnded
        /// The outbox's totals, read at the end of a flush (or why they could not be).
        case counted(Result<OutboxCounters, OutboxError>)
    }

    /// Work for the driver. Each outbox operation runs on the outbox's thread and answers with
    /// one event, or with ``Event/outboxFailed(_:during:)``.
    public enum Effect: Sendable, Equatable {
        /// Commit the sample, then send ``Event/appended(takenAt:_:)``.
        case append(Sample, takenAt: Instant)
        /// Cut the unbatched samples into a batch; with a `lookup` (the batches to skip), also find
        /// the oldest pending batch not skipped, which is the batch just cut, as it is, unless an
        /// older one waits. Then send ``Event/cut(_:_:)``.
        case cutBatch(lookup: Set<UUID>?)
        /// Read the oldest pending batch whose id is not in `skipping`, then send ``Event/found(_:)``.
        case findNext(skipping: Set<UUID>)
        /// Hand the batch to the sink, then send ``Event/answered(_:_:at:roundTrip:)``.
        case deliver(Batch)
        /// Record the ack and find the next batch not in `lookup`, then send ``Event/recorded(_:_:_:)``.
        case markSent(Batch, lookup: Set<UUID>)
        /// Record the failure (and, with a `lookup`, find the next batch), then send
        /// ``Event/recorded(_:_:_:)``.
        case recordFailure(Batch, UploadError, lookup: Set<UUID>?)
        /// Start the retry timer for the `attempt`-th failure in a row, then send
        /// ``Event/retryScheduled(at:)``; it sends ``Event/retryDue``.
        case scheduleRetry(attempt: Int, reason: UploadError)
        /// Stop the retry timer.
        case cancelRetry
        /// The flush is over: stop running the loop for it.
        case endFlush

        /// Whether the effect is an operation whose result comes back as an event.
        var isOperation: Bool {
            switch self {
            case .append, .cutBatch, .findNext, .deliver, .markSent, .recordFailure: true
            case .scheduleRetry, .cancelRetry, .endFlush: false
            }
        }
    }

    /// What the delivery side is doing.
    public private(set) var state = State.idle
    /// Whether a flush is under way (set by ``Event/flushStarted``).
    public private(set) var isFlushing = false
    /// Retryable failures since the last success.
    public private(set) var consecutiveFailures = 0
    /// Batches the sink rejected permanently: skipped until the next start.
    public private(set) var rejected: Set<UUID> = []
    /// Outbox operations and deliveries whose results have not come back yet.
    public private(set) var operationsInFlight = 0
    /// The outbox's totals as of the last write.
    public private(set) var counters: OutboxCounters?
    /// When the last committed sample was taken, on the loop's uptime clock.
    public private(set) var lastSampleTime: Instant?
    /// The last delivery attempt.
    public private(set) var lastAttempt: UploadStatus.Attempt?
    /// The last problem with the sampler or the outbox; cleared by the next outbox success.
    public private(set) var problem: String?
    /// Samples this run could not commit; never cleared.
    public private(set) var unsaved: UploadStatus.Unsaved?
    /// Samples in batches the server refused this run.
    public private(set) var refused: UploadStatus.Refused?
    /// The batches behind ``refused``, with their samples: a batch refused again counts once.
    private var refusedBatches: [UUID: Int] = [:]
    /// Samples this run delivered (acknowledged and recorded).
    public private(set) var deliveredThisRun = 0
    private var retryDeadline: Instant?

    /// A machine at rest.
    public init() {}

    /// When the retry timer fires, while backing off.
    public var retryAt: Instant? {
        if case .backingOff = state { retryDeadline } else { nil }
    }

    /// Whether a flush is still going: the driver runs the loop for it until this turns false.
    public var isFlushUnderWay: Bool {
        isFlushing && state != .finished
    }

    /// Everything a panel shows, as one snapshot.
    public var status: UploadStatus {
        UploadStatus(
            counters: counters, lastSampleTime: lastSampleTime, lastAttempt: lastAttempt, upload: state,
            consecutiveFailures: consecutiveFailures, retryAt: retryAt, problem: problem, unsaved: unsaved,
            refused: refused, deliveredThisRun: deliveredThisRun)
    }

    /// Applies `event` and returns what the driver must do, in order.
    ///
    /// An event that does not fit the state (a late answer after a flush ended, an upload due while
    /// a batch is out) changes no delivery state; what it reports (totals, an attempt) is kept.
    @discardableResult
    public mutating func apply(_ event: Event) -> [Effect] {
        let effects = transition(event)
        operationsInFlight += effects.count(where: \.isOperation)
        return effects
    }

    private mutating func transition(_ event: Event) -> [Effect] {
        switch event {
        case .started:
            return state == .idle ? look() : []
        case .sampled(let sample, let takenAt):
            return [.append(sample, takenAt: takenAt)]
        case .samplerFailed(let problem):
            self.problem = problem
            return []
        case .appended(let takenAt, let counters):
            operationEnded(counters)
            lastSampleTime = takenAt
            unsaved?.savedSince += 1
            return []
        case .uploadDue:
            switch state {
            case .idle:
                state = .finding
                return [.cutBatch(lookup: rejected)]
            case .finding, .delivering, .recording, .backingOff:
                return [.cutBatch(lookup: nil)]
            case .finished:
                return []
            }
        case .cut(let counters, let lookup):
            operationEnded(counters)
            guard state == .finding, case .found(let batch) = lookup else { return [] }
            return found(batch)
        case .found(let batch):
            operationsInFlight -= 1
            problem = nil
            return state == .finding ? found(batch) : []
        case .answered(let batch, let result, let time, let roundTrip):
            operationsInFlight -= 1
            noteAttempt(batch, result, at: time, roundTrip: roundTrip)
            guard case .delivering(let out) = state, out.id == batch.id else { return [] }
            switch result {
            case .success:
                state = .recording(batch, failure: nil)
                if refused?.error.refusesCredentials == true {
                    refused = nil
                    refusedBatches = [:]
                }
                return [.markSent(batch, lookup: rejected)]
            case .failure(let error) where error.isRetryable:
                state = .recording(batch, failure: error)
                return [.recordFailure(batch, error, lookup: nil)]
            case .failure(let error) where error.refusesCredentials:
                // No fault of the batch's: it stays the oldest, tried first by the next upload
                // (which reads the credentials again), so no later batch overtakes it (a time-series
                // database refuses samples older than those it has). Nothing more goes until then.
                state = .recording(batch, failure: error)
                return [.recordFailure(batch, error, lookup: nil)]
            case .failure(let error):
                state = .recording(batch, failure: error)
                rejected.insert(batch.id)
                return [.recordFailure(batch, error, lookup: rejected)]
            }
        case .recorded(let batch, let counters, let lookup):
            operationEnded(counters)
            guard case .recording(let recording, let failure) = state, recording.id == batch.id else { return [] }
            if let failure, failure.isRetryable {
                consecutiveFailures += 1
                guard !isFlushing else { return finish() }
                state = .backingOff(attempt: consecutiveFailures, reason: failure)
                return [.scheduleRetry(attempt: consecutiveFailures, reason: failure)]
            }
            if failure == nil {
                consecutiveFailures = 0
                deliveredThisRun += batch.samples.count
            }
            guard case .found(let next) = lookup else { return settle() }
            return found(next)
        case .outboxFailed(let error, let effect):
            operationsInFlight -= 1
            problem = error.description
            switch effect {
            case .append:
                unsaved = UploadStatus.Unsaved(count: (unsaved?.count ?? 0) + 1, error: error)
                return []
            case .cutBatch(lookup: nil):
                return []  // a cut beside a delivery under way: the state waits for something else
            default:
                switch state {
                case .finding, .recording: return settle()
                case .idle, .delivering, .backingOff, .finished: return []
                }
            }
        case .retryScheduled(let time):
            retryDeadline = time
            return []
        case .retryDue:
            guard case .backingOff = state else { return [] }
            return look()
        case .uploadAskedFor:
            guard case .backingOff = state else { return transition(.uploadDue) }
            state = .finding
            return [.cancelRetry, .cutBatch(lookup: rejected)]
        case .flushStarted:
            guard !isFlushing else { return [] }
            isFlushing = true
            switch state {
            case .idle:
                state = .finding
                return [.cutBatch(lookup: rejected)]
            case .backingOff:
                state = .finding
                return [.cancelRetry, .cutBatch(lookup: rejected)]
            case .finding, .delivering, .recording:
                return [.cutBatch(lookup: nil)]
            case .finished:
                return []
            }
        case .flushEnded:
            guard isFlushing, state != .finished else { return [] }
            return finish()
        case .counted(.success(let counters)):
            self.counters = counters
            problem = nil
            return []
        case .counted(.failure(let error)):
            problem = error.description
            return []
        }
    }

    /// Looks for the oldest pending batch not skipped.
    private mutating func look() -> [Effect] {
        state = .finding
        return [.findNext(skipping: rejected)]
    }

    /// A lookup's answer: deliver what it found, or rest.
    private mutating func found(_ batch: Batch?) -> [Effect] {
        guard let batch else { return settle() }
        state = .delivering(batch)
        return [.deliver(batch)]
    }

    /// An outbox operation succeeded and left `counters`.
    private mutating func operationEnded(_ counters: OutboxCounters) {
        operationsInFlight -= 1
        self.counters = counters
        problem = nil
    }

    private mutating func noteAttempt(
        _ batch: Batch, _ result: Result<Ack, UploadError>, at time: Instant, roundTrip: Duration
    ) {
        var attempt = UploadStatus.Attempt(
            time: time, sampleCount: batch.samples.count, error: nil, statusCode: nil, roundTrip: roundTrip)
        switch result {
        case .success(let ack):
            attempt.statusCode = ack.statusCode
        case .failure(let error):
            attempt.error = error
            if !error.isRetryable {
                refusedBatches[batch.id] = batch.samples.count
                refused = UploadStatus.Refused(
                    count: refusedBatches.values.reduce(0, +), batches: refusedBatches.count,
                    attempts: (refused?.attempts ?? 0) + 1, error: error)
            }
            if case .rejected(let code, _) = error { attempt.statusCode = code }
            if case .serverUnavailable(let code, _) = error { attempt.statusCode = code }
        }
        lastAttempt = attempt
    }

    /// Nothing (more) to do now: at rest, or the end of a flush.
    private mutating func settle() -> [Effect] {
        guard isFlushing else {
            state = .idle
            return []
        }
        return finish()
    }

    private mutating func finish() -> [Effect] {
        state = .finished
        return [.endFlush]
    }
}
