import Foundation
import SwiftProtobuf
import Testing

@testable import Uploads

/// A batch as a Prometheus remote-write 1.0 request: series, labels, times, and the same bytes every time.
@Suite struct RemoteWriteTests {
    let batch = Batch(
        id: UUID(uuidString: "5A0C7C1E-59E1-4F4B-9D64-0D8E1E1A2B3C")!, createdAt: SampleFixtures.time(60),
        samples: (0..<3).map { StoredSample(seq: Int64(41 + $0), sample: SampleFixtures.position($0)) })

    /// The request a receiver decodes from the body: snappy block, then protobuf.
    func decoded(_ body: Data) throws -> Prometheus_WriteRequest {
        let message = try #require(SnappyBlock.uncompress([UInt8](body)), "the body is not a snappy block")
        return try Prometheus_WriteRequest(serializedBytes: message)
    }

    @Test("One series per field plus the seq, each labelled __name__, instance, job, kind and the extra labels, sorted")
    func seriesAndLabels() throws {
        let format = try RemoteWrite(instance: "deck-1", labels: ["region": "eu", "rack": "r3"])
        let request = try decoded(try format.body(for: batch))
        let names = request.timeseries.map { $0.labels.first { $0.name == "__name__" }?.value ?? "" }
        #expect(
            names == [
                "timerdeck_elevation_meters", "timerdeck_latitude_degrees", "timerdeck_longitude_degrees",
                "timerdeck_sample_seq",
            ])
        for series in request.timeseries {
            #expect(series.labels.map(\.name) == ["__name__", "instance", "job", "kind", "rack", "region"])
            #expect(series.labels.dropFirst().map(\.value) == ["deck-1", "timerdeck", "position", "r3", "eu"])
        }
    }

    @Test("Samples are stamped with the time they were taken, in time order, with their values")
    func timesAndValues() throws {
        let request = try RemoteWrite(instance: "deck-1").request(for: batch)
        func points(_ name: String) -> [String] {
            let series = request.timeseries.first { $0.labels.contains { $0.name == "__name__" && $0.value == name } }
            return series?.samples.map { "\($0.value)@\($0.timestamp)" } ?? []
        }
        let start = SampleFixtures.startMilliseconds
        #expect(points("timerdeck_sample_seq") == ["41.0@\(start)", "42.0@\(start + 5_000)", "43.0@\(start + 10_000)"])
        #expect(
            points("timerdeck_latitude_degrees") == [
                "40.7813@\(start)", "40.7814@\(start + 5_000)", "40.7815@\(start + 10_000)",
            ])
        // The third sample has no elevation: no point, rather than a made-up value.
        #expect(points("timerdeck_elevation_meters") == ["33.5@\(start)", "34.5@\(start + 5_000)"])
    }

    @Test("Host metrics: five series in their units")
    func hostMetricsSeries() throws {
        let batch = Batch(
            id: UUID(), createdAt: SampleFixtures.time(60),
            samples: [StoredSample(seq: 1, sample: SampleFixtures.hostMetrics(0))])
        let request = try RemoteWrite(instance: "deck-1").request(for: batch)
        let values = Dictionary(
            uniqueKeysWithValues: request.timeseries.map {
                ($0.labels[0].value, $0.samples.map(\.value))
            })
        #expect(
            values == [
                "timerdeck_load1": [0.52], "timerdeck_load5": [0.58], "timerdeck_load15": [0.59],
                "timerdeck_memory_available_bytes": [9_127_000_064], "timerdeck_memory_total_bytes": [16_707_485_696],
                "timerdeck_sample_seq": [1],
            ])
        #expect(request.timeseries.allSatisfy { $0.labels[3] == label("kind", "host_metrics") })
    }

    @Test("The same batch is the same bytes every time, so a resent batch stores each point once")
    func bodyIsDeterministic() throws {
        let format = try RemoteWrite(instance: "deck-1", labels: ["a": "1", "b": "2", "c": "3"])
        let first = try format.body(for: batch)
        for _ in 0..<20 { #expect(try format.body(for: batch) == first) }
    }

    @Test(
        "Labels Prometheus would refuse are a configuration error naming the label",
        arguments: [
            (
                ["9lives": "x"],
                "\"9lives\" is not a label name (letters, digits and _, not starting with a digit or __)"
            ),
            (["__x": "x"], "\"__x\" is not a label name (letters, digits and _, not starting with a digit or __)"),
            (
                ["re-gion": "x"],
                "\"re-gion\" is not a label name (letters, digits and _, not starting with a digit or __)"
            ),
            (["job": "x"], "the label \"job\" is set by timerdeck itself"),
            (["region": ""], "the label \"region\" has an empty value"),
        ])
    func invalidLabels(labels: [String: String], message: String) {
        #expect(throws: UploadError.invalidConfiguration(message)) {
            try RemoteWrite(instance: "deck-1", labels: labels)
        }
    }

    @Test("A resend refused as out of order is already stored; a first attempt refused so is a rejection")
    func resendRefusedAsOutOfOrderIsStored() throws {
        let format = try RemoteWrite(instance: "deck-1")
        let refused = Result<Ack, UploadError>.failure(.rejected(status: 400, message: "out of order sample"))
        let resent = Batch(id: batch.id, createdAt: batch.createdAt, samples: batch.samples, failedAttempts: 1)
        #expect(
            try format.verdict(refused, for: resent, destination: "db").get()
                == Ack(batchID: batch.id, destination: "db", statusCode: 400))
        #expect(throws: UploadError.rejected(status: 400, message: "out of order sample")) {
            try format.verdict(refused, for: batch, destination: "db").get()
        }
        let tooOld = Result<Ack, UploadError>.failure(.rejected(status: 400, message: "out of bounds"))
        #expect(throws: UploadError.rejected(status: 400, message: "out of bounds")) {
            try format.verdict(tooOld, for: resent, destination: "db").get()
        }
    }

    private func label(_ name: String, _ value: String) -> Prometheus_Label {
        var label = Prometheus_Label()
        label.name = name
        label.value = value
        return label
    }
}
