import Foundation
import Glibc
import TestSupport
import Testing

@testable import Uploads

/// What a user of `timerdeck` sees when the outbox cannot be used or the run ends with samples
/// left: each case exits with a status that says so and a message naming the file and the fix.
@Suite(.serialized, .enabled(if: TimerDeckProcess.isBuilt, "timerdeck is not built"))
struct StartAndExitTests {
    let scratch: ScratchDirectory
    let script: URL

    init() throws {
        scratch = try ScratchDirectory()
        // Readable by the unprivileged user some tests run as.
        chmod(scratch.url.path, 0o777)
        script = scratch.path("run.txt")
        try "wait 6m\nquit\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o644)
    }

    @Test("An outbox file this user cannot write is refused at start with exit 2, not lost sample by sample")
    func readOnlyOutboxFileIsRefusedAtStart() throws {
        let outbox = scratch.path("outbox.sqlite")
        do {
            let created = try Outbox(url: outbox)
            try created.append(SampleFixtures.position(0))
        }
        chmod(outbox.path, 0o444)
        if getuid() != 0 { chmod(scratch.url.path, 0o755) }
        let outcome = try TimerDeckProcess(script: script.path, ["--outbox", outbox.path], unprivileged: true).finish()
        #expect(outcome.status == 2)
        #expect(
            outcome.standardError
                == "timerdeck: outbox: Cannot write the outbox \(outbox.path): attempt to write a readonly database.\n")
    }

    @Test("A second timerdeck on the same outbox names the process holding it and exits 2")
    func secondWriterIsRefusedNamingTheHolder() throws {
        // The first run blocks in its first upload (the server takes 60 s), holding the outbox.
        let collector = try CollectorProcess(["--delay", "60"])
        let outbox = scratch.path("outbox.sqlite").path
        let first = try TimerDeckProcess(script: script.path, ["--outbox", outbox, "--upload-url", collector.endpoint])
        defer {
            kill(first.process.processIdentifier, SIGKILL)
            first.process.waitUntilExit()
        }
        let arrived = try collector.received(afterRequests: 1, within: 120)
        try #require(arrived.requests == 1, "the first run never reached its upload")

        let second = try TimerDeckProcess(
            script: script.path, ["--outbox", outbox, "--upload-url", collector.endpoint]
        ).finish()
        #expect(second.status == 2)
        #expect(
            second.standardError
                == "timerdeck: outbox: The outbox \(outbox) is in use by process \(first.process.processIdentifier); "
                + "only one process may write an outbox. Quit that one first, or use another outbox file.\n")
    }

    @Test("Headless without --outbox: samples left at exit are said to be discarded with the temporary outbox")
    func temporaryOutboxIsNotPromisedForTheNextStart() throws {
        let endpoint = "http://127.0.0.1:\(try CollectorProcess.unusedPort())/batches"
        let outcome = try TimerDeckProcess(script: script.path, ["--upload-url", endpoint]).finish()
        #expect(outcome.status == 0)
        #expect(
            outcome.standardError
                == "timerdeck: 72 samples not yet delivered to \(endpoint) are discarded with the temporary outbox; "
                + "give --outbox FILE to keep them for the next start\n")
    }

    @Test(
        "Headless to a server, samples are stamped from the real clock at start; to a directory, from the virtual clock's fixed date"
    )
    func headlessSamplesToAServerCarryTheRealTime() throws {
        let collector = try CollectorProcess()
        let minute = scratch.path("minute.txt")
        try "wait 1m\nquit\n".write(to: minute, atomically: true, encoding: .utf8)
        let toServer = scratch.path("server.sqlite").path
        let before = Date()
        let outcome = try TimerDeckProcess(
            script: minute.path, ["--outbox", toServer, "--upload-url", collector.endpoint]
        ).finish()
        let after = Date()
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let last = try #require(try Outbox(url: URL(fileURLWithPath: toServer)).counters().lastSample)
        // Taken at the start's real time plus the script's virtual minute.
        let taken = last.sample.takenAt.timeIntervalSince1970
        #expect(
            taken >= before.timeIntervalSince1970.rounded(.down) + 60 && taken <= after.timeIntervalSince1970 + 60,
            "\(last.sample.takenAt) is not a minute after the run's start (\(before)…\(after))")
        #expect(try collector.received().seqs.count == 12, "every sample delivered at the exit's flush")

        let toDirectory = scratch.path("directory.sqlite").path
        let local = try TimerDeckProcess(script: minute.path, ["--outbox", toDirectory]).finish()
        #expect(local.status == 0, "\(local.standardError)")
        let fixed = try #require(try Outbox(url: URL(fileURLWithPath: toDirectory)).counters().lastSample)
        #expect(fixed.sample.takenAtMilliseconds == 1_767_225_660_000, "2026-01-01T00:01:00Z")
    }

    @Test(
        "Samples the server refused for good are not promised to the next start; those refused for the credentials go once it takes them",
        arguments: [
            (
                400,
                "; the server refused them (HTTP 400 {\"error\": \"configured to answer 400\"}) and refuses them again at "
                    + "the next start unless it changes\n"
            ),
            (
                401,
                "; the server refused the credentials (HTTP 401 {\"error\": \"configured to answer 401\"}): fix the "
                    + "password or token file, and they go out once it takes them\n"
            ),
        ])
    func permanentRefusalIsNotPromisedForTheNextStart(status: Int, ending: String) throws {
        let collector = try CollectorProcess(["--status", "\(status)"])
        let outbox = scratch.path("outbox-\(status).sqlite").path
        let outcome = try TimerDeckProcess(
            script: script.path, ["--outbox", outbox, "--upload-url", collector.endpoint]
        )
        .finish()
        #expect(outcome.status == 0)
        #expect(
            outcome.standardError
                == "timerdeck: 72 samples not yet delivered to \(collector.endpoint) stay in \(outbox)" + ending)
        #expect(!outcome.standardError.contains("go out on the next start"))
    }

    @Test("SIGTERM on a headless run removes its temporary outbox directory, as SIGINT does")
    func terminatedHeadlessRunLeavesNoTemporaryDirectory() throws {
        let collector = try CollectorProcess(["--delay", "60"])
        let temporary = scratch.path("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let run = try TimerDeckProcess(
            script: script.path, ["--upload-url", collector.endpoint],
            environment: ["TMPDIR": temporary.path])
        let arrived = try collector.received(afterRequests: 1, within: 120)
        try #require(arrived.requests == 1, "the run never reached its upload")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).count == 1)

        kill(run.process.processIdentifier, SIGTERM)
        let outcome = run.finish()
        #expect(outcome.reason == .uncaughtSignal && outcome.status == SIGTERM)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }
}
