import struct Foundation.UUID

/// The delivery side of the upload pipeline as one value: its ``State``, the failures in a row and
/// the batches skipped as rejected. ``apply(_:)`` takes an event and returns the effects the
/// driver (``UploadPipeline``) performs: outbox reads and writes, a delivery, a retry timer.
///
/// A pure value with no clock, outbox or sink, so every transition is testable on its own:
///
/// ```swift
/// var machine = UploadMachine()
/// machine.apply(.uploadDue)                  // [.findNext(skipping: [])]
/// machine.apply(.found(batch))               // [.deliver(batch)]
/// machine.apply(.answered(batch, .success(ack)))   // [.markSent(batch)]
/// machine.apply(.recorded(batch))            // [.findNext(skipping: [])]
/// ```
public struct UploadMachine: Sendable, Equatable {
    /// What the delivery side is doing. Exactly one thing at a time: a batch is never fetched,
    /// delivered or recorded twice at once.
    public enum State: Sendable, Equatable {
        /// Nothing under way; the next upload or start looks for a pending batch.
        case idle
        /// Reading the oldest pending batch from the outbox.
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

    /// Something that happened to the pipeline.
    public enum Event: Sendable, Equatable {
        /// A batch was cut, or the pipeline started: time to send what is pending.
        case uploadDue
        /// The outbox's oldest pending batch not skipped, or nil when there is none.
        case found(Batch?)
        /// The sink answered for `batch`.
        case answered(Batch, Result<Ack, UploadError>)
        /// The outbox recorded the answer for `batch`.
        case recorded(Batch)
        /// An outbox read or write failed (the error is shown by the driver).
        case outboxFailed
        /// The retry timer fired.
        case retryDue
        /// Quitting: give pending batches one more chance, until ``flushEnded``.
        case flushStarted
        /// The flush's deadline passed.
        case flushEnded
    }

    /// Work for the driver.
    public enum Effect: Sendable, Equatable {
        /// Read the oldest pending batch whose id is not in `skipping`, then send ``Event/found(_:)``.
        case findNext(skipping: Set<UUID>)
        /// Hand the batch to the sink, then send ``Event/answered(_:_:)``.
        case deliver(Batch)
        /// Record the ack, then send ``Event/recorded(_:)``.
        case markSent(Batch)
        /// Record the failure, then send ``Event/recorded(_:)``.
        case recordFailure(Batch, UploadError)
        /// Start the retry timer for the `attempt`-th failure in a row; it sends ``Event/retryDue``.
        case scheduleRetry(attempt: Int, reason: UploadError)
        /// Stop the retry timer.
        case cancelRetry
        /// The flush is over: stop running the loop for it.
        case endFlush
    }

    /// What the delivery side is doing.
    public private(set) var state = State.idle
    /// Whether a flush is under way (set by ``Event/flushStarted``).
    public private(set) var isFlushing = false
    /// Retryable failures since the last success.
    public private(set) var consecutiveFailures = 0
    /// Batches the sink rejected permanently: skipped until the next start.
    public private(set) var rejected: Set<UUID> = []

    /// A machine at rest.
    public init() {}

    /// Applies `event` and returns what the driver must do, in order.
    ///
    /// An event that does not fit the state (a late answer after a flush ended, an upload due while
    /// a batch is out) changes nothing and returns no effect.
    @discardableResult
    public mutating func apply(_ event: Event) -> [Effect] {
        switch (state, event) {
        case (.idle, .uploadDue), (.backingOff, .retryDue):
            state = .finding
            return [.findNext(skipping: rejected)]

        case (.finding, .found(let batch?)):
            state = .delivering(batch)
            return [.deliver(batch)]
        case (.finding, .found(nil)):
            return settle()

        case (.delivering(let batch), .answered(let answered, let result)) where batch.id == answered.id:
            switch result {
            case .success:
                state = .recording(batch, failure: nil)
                return [.markSent(batch)]
            case .failure(let error):
                state = .recording(batch, failure: error)
                return [.recordFailure(batch, error)]
            }

        case (.recording(let batch, let failure), .recorded(let recorded)) where batch.id == recorded.id:
            guard let failure else {
                consecutiveFailures = 0
                state = .finding
                return [.findNext(skipping: rejected)]
            }
            guard failure.isRetryable else {
                rejected.insert(batch.id)
                state = .finding
                return [.findNext(skipping: rejected)]
            }
            consecutiveFailures += 1
            guard !isFlushing else {
                state = .finished
                return [.endFlush]
            }
            state = .backingOff(attempt: consecutiveFailures, reason: failure)
            return [.scheduleRetry(attempt: consecutiveFailures, reason: failure)]

        case (.idle, .outboxFailed), (.finding, .outboxFailed), (.recording, .outboxFailed):
            return settle()

        case (_, .flushStarted):
            isFlushing = true
            switch state {
            case .idle:
                // The driver cuts a last batch and sends ``Event/uploadDue``.
                return []
            case .backingOff:
                state = .finding
                return [.cancelRetry, .findNext(skipping: rejected)]
            case .finding, .delivering, .recording, .finished:
                return []
            }
        case (.idle, .flushEnded), (.finding, .flushEnded), (.delivering, .flushEnded), (.recording, .flushEnded),
            (.backingOff, .flushEnded):
            guard isFlushing else { return [] }
            state = .finished
            return [.endFlush]

        default:
            return []
        }
    }

    /// Nothing (more) to do now: at rest, or the end of a flush.
    private mutating func settle() -> [Effect] {
        guard isFlushing else {
            state = .idle
            return []
        }
        state = .finished
        return [.endFlush]
    }
}
