import Foundation
import TestSupport
import Testing

@testable import TimerDeck

@Suite("--trace: every fire and nested run as JSON Lines, the same every time headless")
struct TraceTests {
    /// The README's scene script (the screen it shows comes from the same steps).
    static let readmeScene =
        "key enter\nkey down\nkey enter\nkey down\nkey enter\nwait 3s\nkey t\nwait 4500ms\nsnapshot\n"

    /// The trace of a headless run of `script`.
    @available(*, noasync)
    func trace(of script: String, config: Config = Config()) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString).jsonl")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let uploads =
            config.hasUploads ? try UploadsSetup(config: config, outboxPath: nil, uploadURL: nil, headless: true) : nil
        try HeadlessSession(
            config: config, uploads: uploads, script: HeadlessScript(parsing: script), trace: TraceFile(path: path)
        ) { _ in }.run()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test("M2/C-T6: the README scene's trace is the pinned golden file (run it twice: the same)")
    @available(*, noasync)
    func readmeSceneTraceIsGolden() throws {
        let golden = try String(
            contentsOfFile: RepositoryFile.path("Tests/TimerDeckTests/Traces/readme-scene.jsonl"), encoding: .utf8)
        let first = try trace(of: Self.readmeScene)
        #expect(first == golden)
        #expect(try trace(of: Self.readmeScene) == first)
    }

    @Test("M2: the nested tracking run is traced with its depth; a default-mode fire during it is not there")
    @available(*, noasync)
    func nestedRunIsTraced() throws {
        let lines = try trace(of: Self.readmeScene).split(separator: "\n")
        #expect(lines.contains("{\"event\":\"nested-run\",\"t_ns\":3000000000,\"mode\":\"tracking\",\"depth\":2}"))
        let duringTracking = lines.filter { $0.contains("\"depth\":2") && $0.contains("\"event\":\"fire\"") }
        #expect(!duringTracking.isEmpty)
        #expect(!duringTracking.contains { $0.contains("\"timer\":\"sms-default\"") })
    }

    @Test("Every line is a JSON object with the documented fields")
    @available(*, noasync)
    func linesAreJSONObjects() throws {
        let script = Self.readmeScene + "key m\nkey 3\nwait 2s\nkey z\n"
        for line in try trace(of: script).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let event = try #require(object["event"] as? String)
            let fields: [String: [String]] = [
                "fire": [
                    "event", "t_ns", "timer", "mechanism", "mode", "scheduled_ns", "lateness_ns", "ticks", "depth",
                ],
                "wake-up": ["event", "t_ns", "reason", "mode", "depth"],
                "mode": ["event", "t_ns", "timer", "mode", "depth"],
                "sleep": ["event", "t_ns", "sleep_ns", "depth"],
                "nested-run": ["event", "t_ns", "mode", "depth"],
                "nested-run-end": ["event", "t_ns", "mode", "depth"],
                "lap": ["event", "t_ns", "timer", "split_ns", "lap_ns", "depth"],
            ]
            #expect(Set(fields.keys) == Set(TraceLine.events))
            #expect(Set(object.keys).isSuperset(of: fields[event] ?? ["unknown event"]), "\(line)")
        }
    }

    @Test("A move with m is traced with the timer and its new mode")
    @available(*, noasync)
    func moveIsTraced() throws {
        // The second row (sms-common) moves from common to default at 2 s.
        let lines = try trace(of: "key down\nwait 2s\nkey m\nwait 1s\n").split(separator: "\n")
        #expect(
            lines.contains(
                "{\"event\":\"mode\",\"t_ns\":2000000000,\"timer\":\"sms-common\",\"mode\":\"default\",\"depth\":1}"))
    }

    @Test("C-R1: wake-ups are traced with their reason while the phases page is shown, and not otherwise")
    @available(*, noasync)
    func wakeUpsAreTracedOnThePhasesPage() throws {
        // The ripple's 60 Hz display link wakes the loop; the phases page is shown from 2 s to 4 s.
        let lines = try trace(of: "key 3\nkey 1\nwait 2s\nkey 3\nwait 2s\nkey 1\nwait 2s\n").split(separator: "\n")
        let wakes = lines.filter { $0.contains("\"event\":\"wake-up\"") }
        let times = wakes.compactMap { Int64($0.split(separator: ",")[1].dropFirst("\"t_ns\":".count)) }
        #expect(wakes.count == 120)
        #expect(times.allSatisfy { $0 > 2_000_000_000 && $0 <= 4_000_000_000 })
        #expect(wakes.allSatisfy { $0.hasSuffix("\"reason\":\"timer\",\"mode\":\"default\",\"depth\":1}") })
    }

    @Test("G3: a simulated sleep (z) is traced with its length")
    @available(*, noasync)
    func sleepIsTraced() throws {
        let lines = try trace(of: "wait 2s\nkey z\nwait 1s\n").split(separator: "\n")
        #expect(lines.contains("{\"event\":\"sleep\",\"t_ns\":2000000000,\"sleep_ns\":30000000000,\"depth\":1}"))
    }

    @Test("A trace file that cannot be created is a clear error")
    func unwritableTraceIsAnError() {
        #expect(throws: TraceFileError.self) { try TraceFile(path: "/nonexistent-directory/trace.jsonl") }
    }

    @Test("Names are escaped as JSON strings")
    func namesAreEscaped() {
        #expect(TraceFile.quoted("a\"b\\c\n\u{1}") == "\"a\\\"b\\\\c\\n\\u0001\"")
    }
}
