import Foundation
import Glibc
import TestSupport
import Testing
import Uploads

extension LoopbackServerSuites {
    /// HTTPSink against the real collector on loopback, one collector process per test.
    @Suite(.serialized) struct HTTPSinkTests {
        let batch = Batch(
            id: UUID(), createdAt: SampleFixtures.time(300),
            samples: (0..<3).map { StoredSample(seq: Int64(10 + $0), sample: SampleFixtures.position($0)) })

        @Test func successfulPostIsAcknowledged() throws {
            let collector = try CollectorProcess()
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            let delivery = try #require(deliver(batch, to: sink))
            #expect(delivery.ack == Ack(batchID: batch.id, destination: collector.endpoint, statusCode: 200))
            #expect(pthread_equal(delivery.thread, pthread_self()) == 0)
            let received = try collector.received()
            #expect(received.batches == [batch.key])
            #expect(received.seqs == [10, 11, 12])
            #expect(received.rejected == 0)
        }

        @Test func redeliveredBatchIsStoredOnce() throws {
            let collector = try CollectorProcess()
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            _ = try #require(deliver(batch, to: sink)?.ack)
            _ = try #require(deliver(batch, to: sink)?.ack)
            let received = try collector.received()
            #expect(received.requests == 2)
            #expect(received.batches == [batch.key])
            #expect(received.duplicates == 1)
        }

        @Test func serverErrorIsRetryableThenSucceeds() throws {
            let collector = try CollectorProcess(["--fail-first", "2"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            for _ in 0..<2 {
                let error = try #require(deliver(batch, to: sink)?.error)
                #expect(error == .serverUnavailable(status: 500, retryAfter: nil))
                #expect(error.isRetryable)
            }
            #expect(try #require(deliver(batch, to: sink)).ack?.statusCode == 200)
            let received = try collector.received()
            #expect(received.requests == 3)
            #expect(received.seqs == [10, 11, 12])
        }

        @Test func tooManyRequestsCarriesRetryAfterSeconds() throws {
            let collector = try CollectorProcess(["--status", "429", "--retry-after", "120"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            let error = try #require(deliver(batch, to: sink)?.error)
            #expect(error == .serverUnavailable(status: 429, retryAfter: .delay(.seconds(120))))
            #expect(error.isRetryable)
            var random = FixedRandom.zero
            let wait = RetryPolicy().delay(
                afterAttempt: 1, retryAfter: error.retryAfter, now: SampleFixtures.time(0), using: &random)
            #expect(wait == .seconds(120))
        }

        @Test func unavailableCarriesRetryAfterDate() throws {
            let collector = try CollectorProcess(["--status", "503", "--retry-after", "Wed, 31 Dec 2025 00:00:00 GMT"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            let error = try #require(deliver(batch, to: sink)?.error)
            #expect(
                error == .serverUnavailable(status: 503, retryAfter: .date(Date(timeIntervalSince1970: 1_767_139_200))))
        }

        @Test func requestTimeoutStatusIsRetryable() throws {
            let collector = try CollectorProcess(["--status", "408"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            #expect(try #require(deliver(batch, to: sink)?.error) == .serverUnavailable(status: 408, retryAfter: nil))
        }

        @Test func badRequestIsAPermanentRejection() throws {
            let collector = try CollectorProcess(["--status", "400"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            let error = try #require(deliver(batch, to: sink)?.error)
            #expect(error == .rejected(status: 400, message: #"{"error": "configured to answer 400"}"#))
            #expect(!error.isRetryable)
            #expect(error.description.contains("stays in the outbox"))
            #expect(try collector.received().batches.isEmpty)
        }

        @Test func redirectIsNotFollowedAndRejectsTheBatch() throws {
            // Following a 302 would turn the POST into a GET of /received, whose 200 would be a false ack.
            let collector = try CollectorProcess()
            try collector.control(["status": 302, "location": "http://127.0.0.1:\(collector.port)/received"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            let error = try #require(deliver(batch, to: sink)?.error)
            #expect(
                error
                    == .rejected(
                        status: 302,
                        message:
                            "redirected to http://127.0.0.1:\(collector.port)/received; set the upload URL to the final address"
                    ))
            #expect(!error.isRetryable)
            #expect(try collector.received().requests == 1)
        }

        @Test func behaviourChangedAtRunTimeApplies() throws {
            let collector = try CollectorProcess(["--status", "400"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
            #expect(try #require(deliver(batch, to: sink)?.error)?.isRetryable == false)
            try collector.control(["status": 201])
            #expect(try #require(deliver(batch, to: sink)).ack?.statusCode == 201)
        }

        @Test func refusedConnectionIsRetryable() throws {
            let endpoint = "http://127.0.0.1:\(try CollectorProcess.unusedPort())/batches"
            let sink = try HTTPSink(endpoint: endpoint, timeout: .seconds(30))
            let error = try #require(deliver(batch, to: sink)?.error)
            #expect(error == .connectionFailed(destination: endpoint, reason: "connection refused"))
            #expect(error.isRetryable)
        }

        @Test func slowServerTimesOut() throws {
            let collector = try CollectorProcess(["--delay", "60"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .milliseconds(500))
            let error = try #require(deliver(batch, to: sink)?.error)
            #expect(error == .timedOut(destination: collector.endpoint, after: .milliseconds(500)))
            #expect(error.isRetryable)
        }

        @Test func subSecondTimeoutStillLetsAFastServerAnswer() throws {
            // Foundation on Linux truncates timeouts to whole seconds; 0.9 s must not mean 0 s.
            let collector = try CollectorProcess()
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .milliseconds(900))
            #expect(try #require(deliver(batch, to: sink)).ack?.statusCode == 200)
        }

        @Test(arguments: ["", "not a url", "ftp://127.0.0.1/batches", "http://", "/batches", "127.0.0.1:8080"])
        func invalidEndpointIsRejectedUpFront(endpoint: String) {
            let error = #expect(throws: UploadError.self) { try HTTPSink(endpoint: endpoint, timeout: .seconds(5)) }
            guard case .invalidConfiguration(let reason, let setting) = error else {
                Issue.record("expected .invalidConfiguration, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("\"\(endpoint)\""))
            #expect(setting == .url)
        }

        @Test func nonPositiveTimeoutIsRejected() {
            #expect(
                throws: UploadError.invalidConfiguration(
                    "the upload timeout must be positive, not 0.0 seconds", setting: .timeout)
            ) {
                try HTTPSink(endpoint: "http://127.0.0.1:9/batches", timeout: .zero)
            }
        }

        @Test func outboxBatchTravelsToTheServerAndIsMarkedSent() throws {
            let scratch = try ScratchDirectory()
            let outbox = try Outbox(url: scratch.path("outbox.sqlite"))
            for index in 0..<5 { try outbox.append(SampleFixtures.position(index)) }
            let collector = try CollectorProcess(["--fail-first", "1"])
            let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))

            let cut = try #require(try outbox.cutBatch(at: SampleFixtures.time(300)).value)
            let failure = try #require(deliver(cut, to: sink)?.error)
            try outbox.recordFailure(cut.id, error: failure, at: SampleFixtures.time(301))

            let retry = try #require(try outbox.pendingBatches().first)
            #expect(retry.failedAttempts == 1)
            let ack = try #require(deliver(retry, to: sink)?.ack)
            try outbox.markSent(ack.batchID, at: SampleFixtures.time(310))

            #expect(try collector.received().seqs == [1, 2, 3, 4, 5])
            #expect(try outbox.pendingBatches().isEmpty)
            #expect(try outbox.counters().deliveredSamples == 5)
        }
    }
}

/// Item: a connection the server drops costs at most a retry, never a truncated request or a stall.
@Suite struct DroppedConnectionTests {
    @Test(
        "A dropped connection fails at once and the batch is re-sent whole with its Idempotency-Key (was: a retry with an empty body, stalled until the timeout)"
    )
    func droppedConnectionIsRetriedWithTheWholeBody() throws {
        let collector = try CollectorProcess()
        let sink = try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30))
        let first = Batch(
            id: UUID(), createdAt: SampleFixtures.time(300),
            samples: [StoredSample(seq: 1, sample: SampleFixtures.position(0))])
        #expect(try #require(deliver(first, to: sink)).ack?.statusCode == 200)

        // The server closes the next POST's connection without answering: a retryable failure at
        // once (not a stall until the timeout), and the next attempt carries the whole body.
        try collector.control(["drop_first": 1])
        let second = Batch(
            id: UUID(), createdAt: SampleFixtures.time(600),
            samples: [StoredSample(seq: 2, sample: SampleFixtures.position(1))])
        let error = try #require(deliver(second, to: sink)?.error)
        #expect(
            error
                == .connectionFailed(
                    destination: collector.endpoint, reason: "the server closed the connection without an answer"))
        #expect(error.isRetryable)
        #expect(try #require(deliver(second, to: sink)).ack?.statusCode == 200)
        let received = try collector.received()
        #expect(received.truncated == 0, "a request arrived with less body than its Content-Length")
        #expect(received.dropped == 1)
        #expect(received.seqs == [1, 2])
        #expect(received.keys == [first.key, second.key, second.key])
    }
}
