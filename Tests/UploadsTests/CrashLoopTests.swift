import Foundation
import Glibc
import TestSupport
import Testing
import Uploads

/// `timerdeck --headless` started, killed with SIGKILL at a random point (while sampling, while
/// cutting a batch, while a POST is at the server) and restarted on the same outbox, cycle after
/// cycle, against the loopback collector. Afterwards no sample is lost, none is stored twice, and
/// every re-sent batch carried its original Idempotency-Key.
///
/// CI runs 3 cycles; `TIMERDECK_CRASH_CYCLES=50 swift test --filter CrashLoopTests` runs 50
/// (`TIMERDECK_CRASH_SEED` picks other kill points).
@Suite(.serialized, .enabled(if: TimerDeckProcess.isBuilt, "timerdeck is not built"))
struct CrashLoopTests {
    static let cycles = ProcessInfo.processInfo.environment["TIMERDECK_CRASH_CYCLES"].flatMap { Int($0) } ?? 3
    static let seed = ProcessInfo.processInfo.environment["TIMERDECK_CRASH_SEED"].flatMap { UInt64($0) } ?? 13

    @Test("SIGKILL at random points, restart, repeat: 0 lost, 0 stored twice, every resend with its original key")
    func killedAtRandomPointsAndRestarted() throws {
        let scratch = try ScratchDirectory()
        let outbox = scratch.path("outbox.sqlite").path
        // Answers take 0.2 s, so a kill often comes while a POST is at the server.
        let collector = try CollectorProcess(["--delay", "0.2", "--lifetime", "3600"])
        let long = scratch.path("long.txt")
        try "wait 120m\n".write(to: long, atomically: true, encoding: .utf8)
        var random = SeededRandom(seed: Self.seed)
        var midPost = 0
        for _ in 0..<Self.cycles {
            let run = try TimerDeckProcess(script: long.path, ["--outbox", outbox, "--upload-url", collector.endpoint])
            if random.next() % 3 == 0 {
                // Mid-POST: as soon as the next request reaches the server, before it answers.
                let seen = try collector.received().requests
                _ = try collector.received(afterRequests: seen + 1, within: 60)
                midPost += 1
            } else {
                // Anywhere else: a random instant within the first 1.5 s (samples, cuts, POSTs).
                // Only where the kill lands depends on this; no assertion does.
                usleep(UInt32(random.next() % 1_500_000))
            }
            kill(run.process.processIdentifier, SIGKILL)
            let outcome = run.finish()
            try #require(
                outcome.reason == .uncaughtSignal || outcome.status == 0, "run failed: \(outcome.standardError)")
        }
        let final = scratch.path("final.txt")
        try "wait 1s\n".write(to: final, atomically: true, encoding: .utf8)
        let last = try TimerDeckProcess(script: final.path, ["--outbox", outbox, "--upload-url", collector.endpoint])
            .finish()
        #expect(last.status == 0, "the final run: \(last.standardError)")

        let counters = try Outbox(url: URL(fileURLWithPath: outbox)).counters()
        let lastSeq = try #require(counters.lastSample?.seq)
        let received = try collector.received()
        #expect(counters.pendingSamples == 0)
        #expect(received.seqs == Array(1...lastSeq), "0 lost and 0 stored twice: every seq exactly once")
        #expect(Set(received.batches).count == received.batches.count)
        // A resend under a new key would store its samples twice; one under its own key is a duplicate.
        let resent = Dictionary(grouping: received.keys, by: { $0 }).filter { $0.value.count > 1 }
        #expect(resent.keys.allSatisfy { received.batches.contains($0) })
        print(
            "crash loop: \(Self.cycles) cycles (\(midPost) mid-POST), seed \(Self.seed): \(lastSeq) samples in "
                + "\(received.batches.count) batches, \(received.requests) POSTs, \(resent.count) batches re-sent "
                + "(\(received.duplicates) duplicate deliveries, stored once), 0 lost")
    }
}
