import Foundation
import RunLoopKit
import Testing
import Uploads

/// The pipeline's state on its own: events in, effects out; no server, no database, no clock.
@Suite struct UploadMachineTests {
    let batch = Batch(
        id: UUID(), createdAt: SampleFixtures.time(300),
        samples: [StoredSample(seq: 1, sample: SampleFixtures.position(0))])
    let later = Batch(
        id: UUID(), createdAt: SampleFixtures.time(600),
        samples: [StoredSample(seq: 2, sample: SampleFixtures.position(1))])
    var ack: Ack { Ack(batchID: batch.id, destination: "sink", statusCode: 200) }
    let unavailable = UploadError.serverUnavailable(status: 503, retryAfter: nil)
    let rejection = UploadError.rejected(status: 422, message: "bad batch")
    let diskFull = OutboxError.diskFull(path: "/state/outbox.sqlite")
    let now = Instant(nanoseconds: 300_000_000_000)

    /// Totals with `pending` samples waiting.
    func counters(pending: Int) -> OutboxCounters {
        OutboxCounters(
            pendingSamples: pending, unbatchedSamples: 0, pendingBatches: pending > 0 ? 1 : 0, rejectedBatches: 0,
            deliveredSamples: 0, lastSample: nil)
    }

    func answer(_ result: Result<Ack, UploadError>, for batch: Batch? = nil) -> UploadMachine.Event {
        .answered(batch ?? self.batch, result, at: now, roundTrip: .milliseconds(40))
    }

    /// A machine with `batch` out at the sink.
    func delivering() -> UploadMachine {
        var machine = UploadMachine()
        machine.apply(.uploadDue)
        machine.apply(.cut(counters(pending: 1), .found(batch)))
        return machine
    }

    @Test("The batch just cut goes to the sink as it is; an ack is recorded with the next lookup in one operation")
    func cutBatchIsDeliveredDirectly() {
        var machine = UploadMachine()
        #expect(machine.apply(.uploadDue) == [.cutBatch(lookup: [])])
        #expect(machine.apply(.cut(counters(pending: 1), .found(batch))) == [.deliver(batch)])
        #expect(machine.state == .delivering(batch))
        #expect(machine.apply(answer(.success(ack))) == [.markSent(batch, lookup: [])])
        #expect(machine.apply(.recorded(batch, counters(pending: 0), .found(nil))) == [])
        #expect(machine.state == .idle)
        #expect(machine.deliveredThisRun == 1)
        #expect(machine.status.counters?.pendingSamples == 0)
        #expect(machine.status.lastAttempt?.statusCode == 200)
        #expect(machine.operationsInFlight == 0)
    }

    @Test("After an ack the batch the same operation found goes next, with no lookup of its own")
    func nextBatchFoundWithTheRecord() {
        var machine = delivering()
        machine.apply(answer(.success(ack)))
        #expect(machine.apply(.recorded(batch, counters(pending: 1), .found(later))) == [.deliver(later)])
        #expect(machine.state == .delivering(later))
    }

    @Test("At start the machine looks for what a previous run left")
    func startLooksForLeftovers() {
        var machine = UploadMachine()
        #expect(machine.apply(.started) == [.findNext(skipping: [])])
        #expect(machine.apply(.found(batch)) == [.deliver(batch)])
    }

    @Test("An upload due while a batch is out cuts a batch but looks for nothing: a batch is never sent twice at once")
    func uploadDueWhileBusyOnlyCuts() {
        var machine = delivering()
        #expect(machine.apply(.uploadDue) == [.cutBatch(lookup: nil)])
        machine.apply(.cut(counters(pending: 2), .notAsked))
        #expect(machine.state == .delivering(batch))
        machine.apply(answer(.success(ack)))
        #expect(machine.apply(.uploadDue) == [.cutBatch(lookup: nil)])
        #expect(machine.state == .recording(batch, failure: nil))
        #expect(machine.status.counters?.pendingSamples == 2)
    }

    @Test("An upload asked for by hand during a backoff cancels the retry and sends now; at rest it is an upload due")
    func uploadAskedForDuringBackoff() {
        var machine = delivering()
        machine.apply(answer(.failure(unavailable)))
        machine.apply(.recorded(batch, counters(pending: 1), .notAsked))
        machine.apply(.retryScheduled(at: now + .seconds(2)))
        #expect(machine.apply(.uploadAskedFor) == [.cancelRetry, .cutBatch(lookup: [])])
        #expect(machine.state == .finding)
        #expect(machine.status.retryAt == nil)
        #expect(machine.apply(.cut(counters(pending: 1), .found(batch))) == [.deliver(batch)])
        var idle = UploadMachine()
        #expect(idle.apply(.uploadAskedFor) == [.cutBatch(lookup: [])])
    }

    @Test("A cut that did not look, answering while a lookup is under way, is not taken for the lookup")
    func cutWithoutLookupIsNotALookup() {
        var machine = delivering()
        machine.apply(answer(.failure(unavailable)))
        machine.apply(.recorded(batch, counters(pending: 1), .notAsked))
        #expect(machine.apply(.uploadDue) == [.cutBatch(lookup: nil)], "backing off: the cut waits for the retry")
        #expect(machine.apply(.retryDue) == [.findNext(skipping: [])])
        #expect(machine.apply(.cut(counters(pending: 2), .notAsked)) == [])
        #expect(machine.state == .finding)
        #expect(machine.apply(.found(batch)) == [.deliver(batch)])
    }

    @Test("A retryable failure backs off with its attempt count and deadline; the retry looks again; success resets")
    func retryableFailureBacksOff() {
        var machine = delivering()
        #expect(machine.apply(answer(.failure(unavailable))) == [.recordFailure(batch, unavailable, lookup: nil)])
        #expect(
            machine.apply(.recorded(batch, counters(pending: 1), .notAsked))
                == [.scheduleRetry(attempt: 1, reason: unavailable)])
        #expect(machine.state == .backingOff(attempt: 1, reason: unavailable))
        machine.apply(.retryScheduled(at: now + .seconds(2)))
        #expect(machine.status.retryAt == now + .seconds(2))
        #expect(machine.apply(.retryDue) == [.findNext(skipping: [])])
        #expect(machine.status.retryAt == nil, "the deadline is gone with the backoff")
        machine.apply(.found(batch))
        machine.apply(answer(.failure(unavailable)))
        #expect(
            machine.apply(.recorded(batch, counters(pending: 1), .notAsked))
                == [.scheduleRetry(attempt: 2, reason: unavailable)])
        machine.apply(.retryDue)
        machine.apply(.found(batch))
        machine.apply(answer(.success(ack)))
        machine.apply(.recorded(batch, counters(pending: 0), .found(nil)))
        #expect(machine.consecutiveFailures == 0)
        #expect(machine.operationsInFlight == 0)
    }

    @Test("A rejected batch is skipped until the next start, counted as refused; later batches still go")
    func rejectedBatchIsSkipped() {
        var machine = delivering()
        #expect(machine.apply(answer(.failure(rejection))) == [.recordFailure(batch, rejection, lookup: [batch.id])])
        #expect(machine.apply(.recorded(batch, counters(pending: 2), .found(later))) == [.deliver(later)])
        #expect(machine.rejected == [batch.id])
        #expect(machine.consecutiveFailures == 0)
        #expect(machine.status.refused?.count == 1)
        #expect(machine.status.lastAttempt?.statusCode == 422)
    }

    @Test("A flush cancels the backoff and tries at once; a retryable failure then ends the flush")
    func flushGivesABackedOffBatchOneMoreTry() {
        var machine = delivering()
        machine.apply(answer(.failure(unavailable)))
        machine.apply(.recorded(batch, counters(pending: 1), .notAsked))
        #expect(machine.apply(.flushStarted) == [.cancelRetry, .cutBatch(lookup: [])])
        #expect(machine.isFlushUnderWay)
        machine.apply(.cut(counters(pending: 1), .found(batch)))
        machine.apply(answer(.failure(unavailable)))
        #expect(machine.apply(.recorded(batch, counters(pending: 1), .notAsked)) == [.endFlush])
        #expect(machine.state == .finished)
        #expect(!machine.isFlushUnderWay)
        #expect(machine.apply(.uploadDue) == [], "nothing goes out after the flush")
    }

    @Test("A flush cuts a last batch, and ends when nothing is pending, when the outbox fails, or at its deadline")
    func flushEnds() {
        var empty = UploadMachine()
        #expect(empty.apply(.flushStarted) == [.cutBatch(lookup: [])])
        #expect(empty.apply(.cut(counters(pending: 0), .found(nil))) == [.endFlush])

        var failing = UploadMachine()
        failing.apply(.flushStarted)
        #expect(failing.apply(.outboxFailed(diskFull, during: .cutBatch(lookup: []))) == [.endFlush])

        var slow = delivering()
        #expect(slow.apply(.flushStarted) == [.cutBatch(lookup: nil)], "the batch out goes on; a last one is cut")
        #expect(slow.apply(.flushEnded) == [.endFlush])
        #expect(slow.apply(.flushEnded) == [], "a flush ends once")
        #expect(slow.apply(answer(.success(ack))) == [], "a late answer after the flush changes nothing")
    }

    @Test("An outbox failure while finding or recording leaves the machine idle, ready for the next upload")
    func outboxFailureReturnsToIdle() {
        var machine = UploadMachine()
        machine.apply(.uploadDue)
        #expect(machine.apply(.outboxFailed(diskFull, during: .cutBatch(lookup: []))) == [])
        #expect(machine.state == .idle)
        #expect(machine.status.problem == diskFull.description)
        #expect(machine.apply(.uploadDue) == [.cutBatch(lookup: [])])
        #expect(machine.operationsInFlight == 1)
    }

    @Test("A failed cut beside a delivery under way leaves the delivery alone")
    func failedCutBesideADelivery() {
        var machine = delivering()
        machine.apply(.uploadDue)
        #expect(machine.apply(.outboxFailed(diskFull, during: .cutBatch(lookup: nil))) == [])
        #expect(machine.state == .delivering(batch))
        machine.apply(answer(.success(ack)))
        machine.apply(.outboxFailed(diskFull, during: .cutBatch(lookup: nil)))
        #expect(machine.state == .recording(batch, failure: nil), "the record it waits for is still to come")
    }

    @Test("A sample the outbox cannot commit is counted lost for good; samples saved after it are counted too")
    func lostSamplesAreCounted() {
        var machine = UploadMachine()
        let sample = SampleFixtures.position(0)
        #expect(machine.apply(.sampled(sample, at: now)) == [.append(sample, takenAt: now)])
        machine.apply(.outboxFailed(diskFull, during: .append(sample, takenAt: now)))
        #expect(machine.status.unsaved?.count == 1)
        #expect(machine.status.unsaved?.savedSince == 0)
        machine.apply(.sampled(sample, at: now + .seconds(5)))
        machine.apply(.appended(takenAt: now + .seconds(5), counters(pending: 1)))
        #expect(machine.status.unsaved?.count == 1)
        #expect(machine.status.unsaved?.savedSince == 1)
        #expect(machine.status.problem == nil, "a success clears the problem, never the count")
        #expect(machine.status.lastSampleTime == now + .seconds(5))
        #expect(machine.operationsInFlight == 0)
    }

    @Test("An answer for another batch than the one out is ignored")
    func strayAnswerIsIgnored() {
        var machine = delivering()
        let stray = answer(.success(Ack(batchID: later.id, destination: "sink", statusCode: 200)), for: later)
        #expect(machine.apply(stray) == [])
        #expect(machine.state == .delivering(batch))
    }
}
