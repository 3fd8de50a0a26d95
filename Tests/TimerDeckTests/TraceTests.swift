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
        let uploads = try UploadsSetup(config: config.uploads, outboxPath: nil, uploadURL: nil, headless: true)
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
        for line in try trace(of: Self.readmeScene).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let event = try #require(object["event"] as? String)
            let fields =
                event == "fire"
                ? ["event", "t_ns", "timer", "mechanism", "mode", "scheduled_ns", "lateness_ns", "ticks", "depth"]
                : ["event", "t_ns", "mode", "depth"]
            #expect(Set(object.keys).isSuperset(of: fields), "\(line)")
        }
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
