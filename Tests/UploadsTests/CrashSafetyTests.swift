import Foundation
import Glibc
import TestSupport
import Testing
import Uploads

/// Kills a running `timerdeck --headless` with SIGKILL in the middle of its upload cycles,
/// restarts it on the same outbox, and checks that no committed sample is lost or stored twice.
@Suite(.serialized, .tags(.crash, .process, .slow)) struct CrashSafetyTests {
    static let binary = BuiltProduct.path("timerdeck")

    @Test(
        "SIGKILL mid-cycle, then a restart: every sample taken before the kill reaches the server once",
        .enabled(if: BuiltProduct.isBuilt("timerdeck"), "timerdeck is not built"))
    func killedAndRestarted() throws {
        let scratch = try ScratchDirectory()
        let outbox = scratch.path("outbox.sqlite").path
        // Slow answers, so a batch is usually in flight when the kill comes.
        let collector = try CollectorProcess(["--delay", "1"])
        let longRun = scratch.path("long.txt")
        try "wait 120m\n".write(to: longRun, atomically: true, encoding: .utf8)

        let first = try launch(script: longRun.path, outbox: outbox, url: collector.endpoint)
        // Wait for the second batch to reach the server (a generous bound: every sample is an
        // fsync, slow on a busy disk), then kill without warning while it is in flight.
        let arrived = try collector.received(afterRequests: 2, within: 240)
        try #require(arrived.requests >= 2, "no second batch within 4 minutes")
        try #require(first.isRunning, "the headless run ended before it could be killed")
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        #expect(first.terminationReason == .uncaughtSignal)

        let afterKill = try Outbox(url: URL(fileURLWithPath: outbox)).counters()
        let lastSeq = try #require(afterKill.lastSample?.seq)
        let receivedBeforeRestart = try collector.received()
        // The kill must leave work behind (the batch in flight is never acknowledged), or the
        // restart would prove nothing.
        #expect(afterKill.pendingSamples > 0, "the kill came after everything was acknowledged")

        let shortRun = scratch.path("short.txt")
        try "wait 1s\n".write(to: shortRun, atomically: true, encoding: .utf8)
        let second = try launch(script: shortRun.path, outbox: outbox, url: collector.endpoint)
        second.waitUntilExit()
        #expect(second.terminationStatus == 0)

        let received = try collector.received()
        #expect(received.seqs == Array(1...lastSeq), "every committed sample delivered exactly once, by seq")
        let final = try Outbox(url: URL(fileURLWithPath: outbox)).counters()
        #expect(final.pendingSamples == 0 && final.unbatchedSamples == 0)
        print(
            "crash test: killed after \(lastSeq) samples, \(afterKill.pendingSamples) unacknowledged, "
                + "\(receivedBeforeRestart.seqs.count) at the server; "
                + "after restart \(received.seqs.count) delivered, \(received.duplicates) batch(es) re-sent and stored once"
        )
    }

    private func launch(script: String, outbox: String, url: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--headless", "--script", script, "--outbox", outbox, "--upload-url", url]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }
}
