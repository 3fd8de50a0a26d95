import Foundation
import Testing
import Uploads

/// The pipeline's delivery state on its own: events in, effects out; no server, no database.
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

    /// A machine with `batch` out at the sink.
    func delivering() -> UploadMachine {
        var machine = UploadMachine()
        machine.apply(.uploadDue)
        machine.apply(.found(batch))
        return machine
    }

    @Test("An acknowledged batch is recorded, then the next one is looked for")
    func ackIsRecordedThenTheNextIsFound() {
        var machine = UploadMachine()
        #expect(machine.apply(.uploadDue) == [.findNext(skipping: [])])
        #expect(machine.apply(.found(batch)) == [.deliver(batch)])
        #expect(machine.state == .delivering(batch))
        #expect(machine.apply(.answered(batch, .success(ack))) == [.markSent(batch)])
        #expect(machine.apply(.recorded(batch)) == [.findNext(skipping: [])])
        #expect(machine.apply(.found(nil)) == [])
        #expect(machine.state == .idle)
    }

    @Test("An upload due while a batch is out or being recorded starts nothing: a batch is never sent twice at once")
    func uploadDueWhileBusyIsIgnored() {
        var machine = delivering()
        #expect(machine.apply(.uploadDue) == [])
        machine.apply(.answered(batch, .success(ack)))
        #expect(machine.apply(.uploadDue) == [])
        #expect(machine.state == .recording(batch, failure: nil))
    }

    @Test("A retryable failure backs off with the attempt count; the retry looks again; success resets the count")
    func retryableFailureBacksOff() {
        var machine = delivering()
        #expect(machine.apply(.answered(batch, .failure(unavailable))) == [.recordFailure(batch, unavailable)])
        #expect(machine.apply(.recorded(batch)) == [.scheduleRetry(attempt: 1, reason: unavailable)])
        #expect(machine.state == .backingOff(attempt: 1, reason: unavailable))
        #expect(machine.apply(.uploadDue) == [], "an upload during the backoff waits for the retry")
        #expect(machine.apply(.retryDue) == [.findNext(skipping: [])])
        machine.apply(.found(batch))
        machine.apply(.answered(batch, .failure(unavailable)))
        #expect(machine.apply(.recorded(batch)) == [.scheduleRetry(attempt: 2, reason: unavailable)])
        machine.apply(.retryDue)
        machine.apply(.found(batch))
        machine.apply(.answered(batch, .success(ack)))
        machine.apply(.recorded(batch))
        #expect(machine.consecutiveFailures == 0)
    }

    @Test("A rejected batch is skipped until the next start; later batches still go")
    func rejectedBatchIsSkipped() {
        var machine = delivering()
        machine.apply(.answered(batch, .failure(rejection)))
        #expect(machine.apply(.recorded(batch)) == [.findNext(skipping: [batch.id])])
        #expect(machine.apply(.found(later)) == [.deliver(later)])
        #expect(machine.rejected == [batch.id])
        #expect(machine.consecutiveFailures == 0)
    }

    @Test("A flush cancels the backoff and tries at once; a retryable failure then ends the flush")
    func flushGivesABackedOffBatchOneMoreTry() {
        var machine = delivering()
        machine.apply(.answered(batch, .failure(unavailable)))
        machine.apply(.recorded(batch))
        #expect(machine.apply(.flushStarted) == [.cancelRetry, .findNext(skipping: [])])
        machine.apply(.found(batch))
        machine.apply(.answered(batch, .failure(unavailable)))
        #expect(machine.apply(.recorded(batch)) == [.endFlush])
        #expect(machine.state == .finished)
        #expect(machine.apply(.uploadDue) == [], "nothing goes out after the flush")
    }

    @Test("A flush ends when nothing is pending, when the outbox fails, or at its deadline")
    func flushEnds() {
        var empty = UploadMachine()
        #expect(empty.apply(.flushStarted) == [])
        empty.apply(.uploadDue)
        #expect(empty.apply(.found(nil)) == [.endFlush])

        var failing = UploadMachine()
        failing.apply(.flushStarted)
        #expect(failing.apply(.outboxFailed) == [.endFlush])

        var slow = delivering()
        slow.apply(.flushStarted)
        #expect(slow.apply(.flushEnded) == [.endFlush])
        #expect(slow.apply(.answered(batch, .success(ack))) == [], "a late answer after the flush changes nothing")
    }

    @Test("An outbox failure while finding or recording leaves the machine idle, ready for the next upload")
    func outboxFailureReturnsToIdle() {
        var machine = UploadMachine()
        machine.apply(.uploadDue)
        #expect(machine.apply(.outboxFailed) == [])
        #expect(machine.state == .idle)
        #expect(machine.apply(.uploadDue) == [.findNext(skipping: [])])
    }

    @Test("An answer for another batch than the one out is ignored")
    func strayAnswerIsIgnored() {
        var machine = delivering()
        #expect(
            machine.apply(.answered(later, .success(Ack(batchID: later.id, destination: "sink", statusCode: 200))))
                == [])
        #expect(machine.state == .delivering(batch))
    }
}
