import AppPlatform
import Foundation
import RunLoopKit
import TestSupport
import Testing
import Uploads

/// The upload pipeline with its outbox directory and its sink's files under seeded faults of the
/// platform layer (`FaultInjection`): interrupted and would-block calls, a full disk, no descriptor
/// left, short writes.
@Suite struct UploadFaultInjectionTests {
    /// What the pipeline met under the faults of one seed.
    struct Outcome {
        var injected: [FaultInjection.Fault: Int]
        /// Every failure the pipeline reported, in its words.
        var failures: Set<String>
    }

    @Test(
        "Under seeded I/O faults every sample reaches the sink once, a file already there is untouched, no temporary is left, and each failure is said with its reason",
        arguments: 1...6 as ClosedRange<UInt64>)
    func noSampleLostUnderFaults(seed: UInt64) throws {
        let outcome = try Self.run(seed: seed)
        #expect(outcome.injected.values.reduce(0, +) > 0)
        for failure in outcome.failures {
            #expect(failure.hasPrefix("Cannot write "), "\(failure)")
            #expect(
                failure.contains("No space left on device") || failure.contains("Too many open files"), "\(failure)")
        }
    }

    @Test("Six seeds inject every kind of fault, and the pipeline reports the ones a caller must hear of")
    func everyKindIsInjected() throws {
        var injected: [FaultInjection.Fault: Int] = [:]
        var failures = 0
        for seed in 1...6 as ClosedRange<UInt64> {
            let outcome = try Self.run(seed: seed)
            injected.merge(outcome.injected, uniquingKeysWith: +)
            failures += outcome.failures.count
        }
        #expect(Set(injected.keys) == Set(FaultInjection.Fault.allCases), "\(injected)")
        #expect(failures > 0)
        print("injected \(injected.values.reduce(0, +)) faults: \(injected.map { "\($0.value) \($0.key.rawValue)" })")
    }

    /// Ten minutes of sampling every 5 s and uploading every minute into a directory sink, with one
    /// file call in three on the scratch directory failing; then five minutes without faults, for the
    /// retries, and a flush. Checks that nothing was lost, duplicated or overwritten.
    private static func run(seed: UInt64) throws -> Outcome {
        var settings = UploadPipeline.Settings()
        settings.uploadInterval = .seconds(60)
        settings.retry = RetryPolicy(base: .seconds(5), factor: 2, cap: .seconds(30), jitter: 0)
        let scene = try UploadPipelineTests.Scene(
            sink: { DirectorySink(directory: $0.path("uploads")) }, settings: settings)
        let uploads = scene.scratch.path("uploads")
        try FileManager.default.createDirectory(at: uploads, withIntermediateDirectories: false)
        let mine = try scene.scratch.write("mine\n", to: "uploads/notes.txt")

        let faults = FaultInjection(seed: seed, under: scene.scratch.url.path, oneIn: 3)
        var failures: Set<String> = []
        scene.pipeline.start()
        faults.run {
            for second in stride(from: 5 as Int64, through: 600, by: 5) {
                scene.run(untilSecond: second)
                if let error = scene.pipeline.status.lastAttempt?.error { failures.insert(error.description) }
            }
        }
        scene.run(untilSecond: 900)
        #expect(scene.pipeline.flush() == 0, "seed \(seed): every batch delivered after the faults")

        let stored = try scene.storedSeqs()
        #expect(stored.count >= 179, "a sample every 5 s for 900 s")
        var delivered: [Int64] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: uploads.path) where name != "notes.txt" {
            #expect(name.hasSuffix(".json") && !name.hasPrefix("."), "seed \(seed): \(name) left behind")
            let data = try Data(contentsOf: uploads.appendingPathComponent(name))
            let payload = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let samples = try #require(payload["samples"] as? [[String: Any]], "seed \(seed): \(name) is whole")
            delivered += samples.compactMap { $0["seq"] as? Int64 }
        }
        #expect(delivered.sorted() == stored, "seed \(seed): each sample in exactly one file")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "mine\n")
        return Outcome(injected: faults.counts, failures: failures)
    }
}
