import Foundation
import TestSupport
import Testing

@testable import TimerDeck

/// `timerdeck --headless --script FILE --json`: each snapshot as one JSON line of the state.
@Suite("Snapshots as JSON lines")
struct JSONSnapshotTests {
    @available(*, noasync)
    func records(_ script: String) throws -> [[String: Any]] {
        var lines: [String] = []
        let session = try HeadlessSession(
            config: Config(), uploads: nil, script: HeadlessScript(parsing: script), json: true
        ) { lines.append($0) }
        session.run()
        return try lines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test("Each snapshot is one JSON object: the loop, every row with its mode, state and next fire, the fires")
    @available(*, noasync)
    func snapshotsAreJSONLines() throws {
        let records = try records("key enter\nwait 1s\nsnapshot\nkey >\nwait 2s\nsnapshot")
        try #require(records.count == 2)
        let first = records[0]
        #expect(first["t_ns"] as? Int == 1_000_000_000)
        #expect(first["mode"] as? String == "default" && first["depth"] as? Int == 1)
        #expect(first["fires"] as? Int == 1)
        let rows = try #require(first["rows"] as? [[String: Any]])
        let sms = try #require(rows.first { $0["name"] as? String == "sms-default" })
        #expect(sms["mechanism"] as? String == "runloop" && sms["mode"] as? String == "default")
        #expect(sms["state"] as? String == "running" && sms["button"] as? String == "Resend (59)")
        #expect(sms["next_fire_ns"] as? Int == 2_000_000_000)
        let gcd = try #require(rows.first { $0["name"] as? String == "sms-gcd" })
        #expect(gcd["mode"] == nil && gcd["next_fire_ns"] == nil && gcd["state"] as? String == "idle")
        #expect(records[1]["hint"] as? String == "already at 1×: time runs no faster than real time (< slows it)")
        #expect(records[1]["t_ns"] as? Int == 3_000_000_000)
    }

    @Test(
        "The built binary prints JSON lines with the uploads; --json without --headless exits 2",
        .tags(.process), .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
    func builtBinary() throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write("wait 6s\nsnapshot\n", to: "s.txt")
        let outcome = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["--headless", "--script", script, "--json"], timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.output.split(separator: "\n")
        try #require(lines.count == 1, "\(outcome)")
        let record = try #require(
            JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let uploads = try #require(record["uploads"] as? [String: Any])
        #expect(uploads["pending_samples"] as? Int == 1 && uploads["sink"] as? String == "dir (temporary)")
        let refused = try ChildProcess.run(BuiltProduct.path("timerdeck"), ["--json"], timeout: .seconds(60))
        #expect(refused.status == 2)
        #expect(refused.error.contains("--json is only used with --headless"))
    }
}
