import Foundation
import TestSupport
import Testing
import Uploads

extension LoopbackServerSuites {
    /// Reading a batch back from the store (``StoreConfirmation``), with real Prometheus servers on
    /// loopback: one the batch is written to, and a store it is read back from. When they are one
    /// server, the batch is there; when the writer is another server (a relay that loses what it
    /// took), the relay's 2xx does not count.
    @Suite(.serialized, .tags(.process, .slow)) struct StoreConfirmationTests {
        /// A route scene's samples `1...count`, one every 5 s from now (a store keeps recent samples).
        static func recentSamples(_ count: Int) throws -> [StoredSample] {
            let start = Int64(Date().timeIntervalSince1970 * 1000) - Int64(count) * 5_000
            return (1...count).map { seq in
                let fields = SampleFields.position(latitude: 48.1 + Double(seq) / 1000, longitude: 11.5, elevation: 520)
                return StoredSample(
                    seq: Int64(seq), sample: Sample(takenAtMilliseconds: start + Int64(seq) * 5_000, fields: fields))
            }
        }

        /// A remote-write sink to `endpoint` for `instance`, reading batches back from `store` if given.
        static func sink(_ endpoint: String, instance: String, store: String?, patience: Duration = .seconds(20)) throws
            -> HTTPSink
        {
            let confirmation = try store.map {
                try StoreConfirmation(
                    store: $0, timeout: .seconds(10), patience: patience, pollInterval: .milliseconds(100))
            }
            return try HTTPSink(
                endpoint: endpoint, timeout: .seconds(10), format: .remoteWrite(try RemoteWrite(instance: instance)),
                confirmation: confirmation)
        }

        @Test("Written to the store it is read back from: the batch is acknowledged, every point found")
        func storeShowingTheBatchConfirms() throws {
            let store = try PrometheusProcess()
            let batch = Batch(id: UUID(), createdAt: Date(), samples: try Self.recentSamples(8))
            let sink = try Self.sink(store.endpoint, instance: "deck-1", store: store.base)
            let delivery = try #require(deliver(batch, to: sink))
            #expect(delivery.ack?.statusCode == 204, "\(String(describing: delivery.error))")
            let format = try RemoteWrite(instance: "deck-1")
            let confirmation = try #require(sink.confirmation)
            let count = try confirmation.missingPoints(of: batch, in: format).get()
            // Each sample is its seq and its three position fields.
            #expect(count == (missing: 0, of: 32))
        }

        @Test("A relay's 2xx for a batch the store never gets is not an acknowledgement, until the store has it")
        func relayLosingTheBatchIsNotTrusted() throws {
            // The relay takes the batch again as a relay does (older samples than its newest too).
            let relay = try PrometheusProcess(outOfOrderWindow: "1h")
            let store = try PrometheusProcess()
            let batch = Batch(id: UUID(), createdAt: Date(), samples: try Self.recentSamples(6))
            // The positive control: without reading back, the relay's answer is the acknowledgement.
            let trusting = try Self.sink(relay.endpoint, instance: "deck-2", store: nil)
            #expect(deliver(batch, to: trusting)?.ack?.statusCode == 204)

            let confirming = try Self.sink(relay.endpoint, instance: "deck-2", store: store.base, patience: .seconds(1))
            let refused = try #require(deliver(batch, to: confirming))
            let error = try #require(refused.error)
            #expect(error.isRetryable)
            #expect(
                error.description
                    == "The relay took the batch, but 1.0 seconds later the store at \(store.base) does not show it "
                    + "all: 24 of its 24 points are not there. It is sent again.")

            // The store gets the batch (as a relay forwarding it late would): now it is confirmed.
            #expect(deliver(batch, to: try Self.sink(store.endpoint, instance: "deck-2", store: nil))?.ack != nil)
            #expect(deliver(batch, to: confirming)?.ack?.statusCode == 204)
        }

        @Test("A batch the relay never forwards goes to the store's own receiver after two failed deliveries")
        func twiceFailedBatchGoesToTheFallback() throws {
            let relay = try PrometheusProcess(outOfOrderWindow: "1h")
            let store = try PrometheusProcess()
            let samples = try Self.recentSamples(4)
            let confirmation = try StoreConfirmation(
                store: store.base, timeout: .seconds(10), patience: .milliseconds(300), pollInterval: .milliseconds(100)
            )
            let sink = try HTTPSink(
                endpoint: relay.endpoint, timeout: .seconds(10),
                format: .remoteWrite(try RemoteWrite(instance: "deck-4")), confirmation: confirmation,
                fallback: store.endpoint)
            let id = UUID()
            for failed in 0..<HTTPSink.fallbackAfter {
                let batch = Batch(id: id, createdAt: Date(), samples: samples, failedAttempts: failed)
                #expect(sink.target(of: batch).absoluteString == relay.endpoint)
                #expect(deliver(batch, to: sink)?.error?.isRetryable == true, "attempt \(failed + 1) went to the relay")
            }
            let third = Batch(id: id, createdAt: Date(), samples: samples, failedAttempts: HTTPSink.fallbackAfter)
            #expect(sink.target(of: third).absoluteString == store.endpoint)
            let delivery = try #require(deliver(third, to: sink))
            #expect(delivery.ack?.destination == store.endpoint, "\(String(describing: delivery.error))")
        }

        @Test("Labels that PromQL must quote are matched as written: quotes, a backslash, a plus, a space")
        func quotedLabelsConfirm() throws {
            let store = try PrometheusProcess()
            let instance = #"deck "7" \ a+b"#
            let batch = Batch(id: UUID(), createdAt: Date(), samples: try Self.recentSamples(3))
            let sink = try Self.sink(store.endpoint, instance: instance, store: store.base)
            let delivery = try #require(deliver(batch, to: sink))
            #expect(delivery.ack != nil, "\(String(describing: delivery.error))")
        }

        @Test("A store that cannot be asked leaves the batch unconfirmed, saying why")
        func unreachableStoreSaysWhy() throws {
            let relay = try PrometheusProcess()
            let port = try CollectorProcess.unusedPort()
            let batch = Batch(id: UUID(), createdAt: Date(), samples: try Self.recentSamples(2))
            let sink = try Self.sink(
                relay.endpoint, instance: "deck-3", store: "http://127.0.0.1:\(port)", patience: .seconds(1))
            let error = try #require(deliver(batch, to: sink)?.error)
            #expect(
                error.description
                    == "The relay took the batch, but 1.0 seconds later the store at http://127.0.0.1:\(port) does not "
                    + "show it all: it cannot be asked: Cannot reach http://127.0.0.1:\(port): connection refused. "
                    + "It is sent again.")
        }

        @Test("A store URL that cannot be asked is refused when the sink is made, naming the setting")
        func badStoreURLsAreRefused() throws {
            for address in ["store:9090", "ftp://store", "http://user@store:9090", "http://store:9090/?x=1"] {
                #expect {
                    try StoreConfirmation(store: address, timeout: .seconds(1))
                } throws: { error in
                    guard case UploadError.invalidConfiguration(_, .confirmURL) = error else { return false }
                    return true
                }
            }
            let confirmation = try StoreConfirmation(store: "http://127.0.0.1:9090", timeout: .seconds(1))
            #expect {
                try HTTPSink(
                    endpoint: "http://127.0.0.1:8080/samples", timeout: .seconds(1), confirmation: confirmation)
            } throws: { error in
                guard case UploadError.invalidConfiguration(_, .confirmURL) = error else { return false }
                return true
            }
        }
    }
}
