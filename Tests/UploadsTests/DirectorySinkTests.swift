import Foundation
import Glibc
import TestSupport
import Testing

@testable import Uploads

@Suite struct DirectorySinkTests {
    let scratch: ScratchDirectory
    let batch: Batch

    init() throws {
        scratch = try ScratchDirectory()
        batch = Batch(
            id: UUID(uuidString: "6F1C2A4E-0B7D-4E55-9A0C-3D2B1E8F7A61")!, createdAt: SampleFixtures.time(300),
            samples: [
                StoredSample(seq: 41, sample: SampleFixtures.position(0)),
                StoredSample(seq: 42, sample: SampleFixtures.position(2)),
                StoredSample(seq: 43, sample: SampleFixtures.hostMetrics(3)),
            ])
    }

    @Test func writesTheBatchAsJSONNamedByItsID() throws {
        let directory = scratch.path("state/timerdeck/uploads")
        let sink = DirectorySink(directory: directory)
        let delivery = try #require(deliver(batch, to: sink))
        let ack = try #require(delivery.ack)
        let file = directory.appendingPathComponent("6f1c2a4e-0b7d-4e55-9a0c-3d2b1e8f7a61.json")
        #expect(ack == Ack(batchID: batch.id, destination: file.path))
        #expect(sink.fileURL(for: batch.id) == file)

        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(document["batch"] as? String == batch.key)
        let samples = try #require(document["samples"] as? [[String: Any]])
        #expect(samples.map { $0["seq"] as? Int } == [41, 42, 43])
        #expect(samples[0]["taken_at"] as? String == "2024-05-18T07:30:00.000Z")
        #expect(samples[0]["kind"] as? String == "position")
        #expect(samples[1]["ele"] == nil)
        #expect(samples[2]["memAvailable"] as? Int == 9_127_000_064)
    }

    @Test func leavesOnlyTheFinishedFile() throws {
        let sink = DirectorySink(directory: scratch.url)
        _ = try #require(deliver(batch, to: sink)?.ack)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [batch.key + ".json"])
    }

    @Test func deliveringTwiceStoresTheSameFileOnce() throws {
        let sink = DirectorySink(directory: scratch.url)
        _ = try #require(deliver(batch, to: sink)?.ack)
        let first = try Data(contentsOf: sink.fileURL(for: batch.id))
        _ = try #require(deliver(batch, to: sink)?.ack)
        #expect(try Data(contentsOf: sink.fileURL(for: batch.id)) == first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).count == 1)
    }

    @Test func completesOnAnotherThread() throws {
        let delivery = try #require(deliver(batch, to: DirectorySink(directory: scratch.url)))
        #expect(pthread_equal(delivery.thread, pthread_self()) == 0)
    }

    @Test func unwritableDirectoryIsARetryableFailureNamingThePath() throws {
        let blocker = scratch.path("uploads")
        try Data("not a directory".utf8).write(to: blocker)
        let delivery = try #require(deliver(batch, to: DirectorySink(directory: blocker)))
        let error = try #require(delivery.error)
        #expect(error == .writeFailed(path: blocker.path, reason: "cannot use as a directory: Not a directory"))
        #expect(error.isRetryable)
    }

    @Test func payloadIsStableJSON() throws {
        let body = String(decoding: try BatchPayload.encode(batch), as: UTF8.self)
        #expect(
            body == """
                {"batch":"6f1c2a4e-0b7d-4e55-9a0c-3d2b1e8f7a61","samples":[\
                {"ele":33.5,"kind":"position","lat":40.7813,"lon":-73.9636,"seq":41,"taken_at":"2024-05-18T07:30:00.000Z"},\
                {"kind":"position","lat":40.7815,"lon":-73.9634,"seq":42,"taken_at":"2024-05-18T07:30:10.000Z"},\
                {"kind":"host_metrics","load1":0.52,"load15":0.59,"load5":0.58,"memAvailable":9127000064,\
                "memTotal":16707485696,"seq":43,"taken_at":"2024-05-18T07:30:15.250Z"}]}
                """)
    }
}
