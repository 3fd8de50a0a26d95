import Foundation
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

@Suite(
    "timerdeck history: every finished countdown, alarm and stopwatch with its exact start, end and pauses",
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct HistoryTests {
    static let config = """
        [[timers]]
        name = "tea"
        drives = "countdown"
        countdown = 5
        start = false

        [[timers]]
        name = "eggs"
        drives = "countdown"
        countdown = 60
        start = false

        [[timers]]
        name = "run"
        drives = "stopwatch"
        interval = "100ms"
        start = false

        [[timers]]
        name = "lunch"
        mechanism = "alarm"
        first_fire = "00:00:20"
        """

    /// tea pressed at 0 s, held 2 s to 3 s, ends at 6 s; eggs pressed at 0 s, deleted at 8 s; run
    /// started at 0 s, held 4 s to 5 s, stopped at 9 s; lunch set at the start, rings at 20 s.
    static let script = """
        key enter
        key down
        key enter
        key down
        key s
        key up
        key up
        wait 2s
        key p
        wait 1s
        key p
        wait 1s
        key down
        key down
        key p
        wait 1s
        key p
        wait 3s
        key up
        key d
        wait 1s
        key s
        wait 12s
        quit
        """

    @Test("A run's sessions come out as CSV and JSON, exact to the millisecond; --since leaves out the older")
    func sessionsOfARun() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        let run = try ChildProcess.run(
            BuiltProduct.path("timerdeck"),
            [
                "--headless", "--script", try scratch.write(Self.script, to: "s.txt"), "--config",
                try scratch.write(Self.config, to: "c.toml"), "--state", state,
            ], timeout: .seconds(60), environment: environment)
        #expect(run.status == 0, "\(run)")
        let csv = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["history", "--state", state], timeout: .seconds(30),
            environment: environment)
        #expect(csv.status == 0, "\(csv)")
        let at = { (seconds: Int) in "2026-01-01T00:00:\(seconds < 10 ? "0" : "")\(seconds).000Z" }
        #expect(
            csv.output.split(separator: "\n").map(String.init) == [
                "kind,name,outcome,start,end,running_seconds,pauses",
                "countdown,tea,ended,\(at(0)),\(at(6)),5.000,\(at(2))/\(at(3))",
                "countdown,eggs,deleted,\(at(0)),\(at(8)),8.000,",
                "stopwatch,run,stopped,\(at(0)),\(at(9)),8.000,\(at(4))/\(at(5))",
                "alarm,lunch,rang,\(at(0)),\(at(20)),20.000,",
            ], "\(csv.output)")
        let json = try ChildProcess.run(
            BuiltProduct.path("timerdeck"),
            ["history", "--state", state, "--format", "json", "--since", "2026-01-01T00:00:10"],
            timeout: .seconds(30), environment: environment)
        let sessions = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        #expect(sessions.map { $0["name"] as? String } == ["lunch"], "\(json.output)")
        let bad = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["history", "--state", state, "--since", "soon"], timeout: .seconds(30))
        #expect(bad.status == 2 && bad.error.contains("option --since: \"soon\" is not a local date"), "\(bad)")
    }

    @Test("The file stays bounded: past its size its older half goes, the newest lines whole")
    func bounded() throws {
        let scratch = try ScratchDirectory()
        let file = SessionHistoryFile(path: scratch.path("timers.history").path, maximumBytes: 2_000)
        for number in 0..<100 {
            let session = FinishedSession(
                kind: .countdown, name: "tea\(number)", outcome: .ended, start: Instant(nanoseconds: Int64(number)),
                end: Instant(nanoseconds: Int64(number) + 1))
            #expect(file.append(session) == nil)
        }
        let (sessions, unreadable) = try file.sessions()
        #expect(unreadable == 0)
        #expect(sessions.last?.name == "tea99")
        #expect(sessions.count < 100 && sessions.count > 10)
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        #expect(size <= 2_000, "\(size) bytes")
    }
}
