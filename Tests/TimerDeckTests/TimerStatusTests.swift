import Foundation
import KeptTimers
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

@Suite("timerdeck status: the kept timers for a person, tmux, waybar or a program, with no dashboard")
struct TimerStatusTests {
    /// The wall-clock time the statuses are read at.
    static let now = Instant(nanoseconds: 1_767_225_600_000_000_000)

    /// A running countdown of 240 s with 161.2 s left, a held one, an alarm in 2 h 5 min and a
    /// stopwatch that has run 12 min 3.4 s.
    static let saved = SavedTimers(entries: [
        .countdown(name: "tea", endsAt: now + .milliseconds(161_200)),
        .pausedCountdown(name: "eggs", remaining: 42),
        .alarm(name: "lunch", deadline: now + .seconds(7_500), isPaused: false),
        .stopwatch(name: "run", startedAt: now - .milliseconds(723_400), splits: []),
    ])

    /// The countdowns' lengths by name, each from an `a` form line.
    static func countdowns(_ lines: String...) throws -> [String: TimerFileText.CountdownLength] {
        let definitions = try lines.map { try TimerDefinition.parse(line: $0, taken: []) }
        return Dictionary(uniqueKeysWithValues: definitions.map { ($0.name, $0.countdownLength) })
    }

    @Test("Each format says every timer; waybar's JSON has text, tooltip, class and the first countdown's percentage")
    func formats() throws {
        let status = TimerStatus(
            Self.saved.entries, countdowns: try Self.countdowns("tea 4m countdown", "eggs 1m countdown"),
            wallNow: Self.now)
        let lunch = try #require(LocalDateTime(localTimeOf: Self.now + .seconds(7_500))).time.text
        let lines = status.text(.text).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[0] == "tea: 02:42 left")
        #expect(lines[1] == "eggs: 00:42 left (paused)")
        #expect(lines[2].hasPrefix("lunch: rings at \(lunch), in 2h"), "\(lines[2])")
        #expect(lines[3] == "run: 12:03.4 run")
        #expect(status.text(.tmux) == "tea 02:42 · eggs 00:42 ‖ · lunch \(lunch) · run 12:03.4")
        let waybar = try #require(
            try JSONSerialization.jsonObject(with: Data(status.text(.waybar).utf8)) as? [String: Any])
        #expect(waybar["text"] as? String == status.text(.tmux))
        #expect(waybar["tooltip"] as? String == status.text(.text))
        #expect(waybar["class"] as? String == "running")
        // 78.8 s of 240 s have gone.
        #expect(waybar["percentage"] as? Int == 32)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.text(.json).utf8)) as? [String: Any])
        let timers = try #require(json["timers"] as? [[String: Any]])
        #expect(timers.map { $0["name"] as? String } == ["tea", "eggs", "lunch", "run"])
        #expect(timers[0]["ms"] as? Int == 161_200 && timers[0]["length_s"] as? Int == 240)
        #expect(timers[1]["paused"] as? Bool == true && timers[2]["rings_at"] as? String == lunch)
    }

    @Test("Past its end a countdown counts on, the class overtime, or without overtime has ended; none: idle")
    func overtimeAndIdle() throws {
        let over = SavedTimers(entries: [.countdown(name: "tea", endsAt: Self.now - .seconds(65))])
        let status = TimerStatus(over.entries, countdowns: try Self.countdowns("tea 4m overtime"), wallNow: Self.now)
        #expect(status.text(.text) == "tea: +01:05 past its end")
        #expect(status.stateClass == "overtime" && status.percentage == 100)
        let ended = TimerStatus(over.entries, countdowns: try Self.countdowns("tea 4m countdown"), wallNow: Self.now)
        #expect(ended.text(.text) == "tea: ended" && ended.text(.tmux) == "tea ended")
        #expect(ended.stateClass == "idle" && ended.percentage == nil)
        let idle = TimerStatus([], countdowns: [:], wallNow: Self.now)
        #expect(idle.text(.text) == "no timers running" && idle.text(.tmux) == "")
        #expect(idle.text(.waybar) == #"{"text":"","tooltip":"no timers running","class":"idle"}"#)
    }

    @Test(
        "The built command reads the file without touching it, exits 2 naming a bad format or a file that is not one",
        .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
    func command() throws {
        let scratch = try ScratchDirectory()
        let wallNow = Instant(nanoseconds: Int64(Date().timeIntervalSince1970 * 1e9))
        let kept = SavedTimers(entries: [.countdown(name: "tea", endsAt: wallNow + .seconds(1_800))], savedAt: wallNow)
        let path = try scratch.write(kept.text, to: "timers.state")
        let config = try scratch.write(
            "[[timers]]\nname = \"tea\"\ndrives = \"countdown\"\ncountdown = 3600\n", to: "timers.toml")
        let status = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["status", "--state", path, "--config", config, "--format", "waybar"],
            timeout: .seconds(30))
        #expect(status.status == 0, "\(status)")
        let waybar = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
        #expect((waybar["text"] as? String)?.hasPrefix("tea 30:00") == true, "\(status.output)")
        #expect(waybar["percentage"] as? Int == 50, "\(status.output)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == kept.text)
        let missing = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["status", "--state", scratch.path("none").path], timeout: .seconds(30))
        #expect(missing.status == 0 && missing.output == "no timers running\n", "\(missing)")
        let format = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["status", "--state", path, "--format", "xml"], timeout: .seconds(30))
        #expect(format.status == 2 && format.error.contains("option --format: \"xml\" is not one of text, tmux"))
        let garbage = try scratch.write("not timers\n", to: "garbage.state")
        let corrupt = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["status", "--state", garbage], timeout: .seconds(30))
        #expect(corrupt.status == 2 && corrupt.error.contains("is not a timers file"), "\(corrupt)")
        #expect(try String(contentsOfFile: garbage, encoding: .utf8) == "not timers\n", "left as it was")
    }
}
