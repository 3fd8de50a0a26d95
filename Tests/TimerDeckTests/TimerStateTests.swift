import Foundation
import KeptTimers
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

@Suite("The timers kept across restarts: the state file's text")
struct SavedTimersTests {
    @Test("Every kind of entry reads back as written; anything else is not a state file")
    func roundTrip() throws {
        let saved = SavedTimers(
            entries: [
                .countdown(name: "tea", endsAt: Instant(nanoseconds: 1_767_225_660_000_000_000)),
                .pausedCountdown(name: "eggs", remaining: 42),
                .alarm(name: "lunch", deadline: Instant(nanoseconds: 1_767_229_200_000_000_000), isPaused: false),
                .alarm(name: "nap", deadline: Instant(nanoseconds: 1_767_229_300_000_000_000), isPaused: true),
                .stopwatch(
                    name: "run", startedAt: Instant(nanoseconds: 1_767_225_600_000_000_000), splits: [.seconds(10)]),
                .pausedStopwatch(name: "walk", elapsed: .seconds(62), splits: []),
            ], savedAt: Instant(nanoseconds: 1_767_225_650_000_000_000),
            countdownLengths: ["tea": .init(seconds: 240, overtime: true), "eggs": .init(seconds: 60, overtime: false)])
        #expect(SavedTimers(text: saved.text) == saved)
        #expect(saved.text.contains("\nlength\teggs\t60\tends\nlength\ttea\t240\tovertime\n"), "\(saved.text)")
        // A file of format 2 keeps no lengths, and reads as it did.
        let formatTwo = "timerdeck-state 2\nsaved\t5\ncountdown\ttea\tpaused\t42\n"
        #expect(
            SavedTimers(text: formatTwo)
                == SavedTimers(
                    entries: [.pausedCountdown(name: "tea", remaining: 42)], savedAt: Instant(nanoseconds: 5)))
        // A file of format 1 has no saved line and reads as it did.
        let formatOne = "timerdeck-state 1\ncountdown\ttea\trunning\t1767225660000000000\n"
        #expect(SavedTimers(text: formatOne)?.entries == [saved.entries[0]])
        #expect(SavedTimers(text: formatOne)?.savedAt == nil)
        #expect(SavedTimers(text: "timerdeck-state 1\nsaved\t5\n") == nil, "no saved line in format 1")
        var soup = try TimerDefinition.parse(line: "soup 3m overtime", taken: [])
        soup.actions.hook = "printf 'a\\tb\\n' \"\\\\\"\tend"
        let added = SavedTimers(entries: [.pausedCountdown(name: "soup", remaining: 5)], added: [soup])
        #expect(!added.text.dropLast().contains("\n\n") && SavedTimers(text: added.text) == added)
        #expect(SavedTimers(text: TimerFileText.header + "\nadded\t[[timers]]\\q\n") == nil)
        #expect(SavedTimers(text: TimerFileText.header + "\n") == SavedTimers())
        for text in [
            "", "garbage\n", TimerFileText.header, "timerdeck-state 4\n", "timerdeck-state 03\n",
            TimerFileText.header + "\nsaved\t5\nsaved\t6\n", TimerFileText.header + "\nsaved\tsoon\n",
            TimerFileText.header + "\ncountdown\ttea\trunning\n",
            TimerFileText.header + "\ncountdown\ttea\tsleeping\t5\n",
            TimerFileText.header + "\ncountdown\tt ea\trunning\t5\n",
            TimerFileText.header + "\ncountdown\ttea\tpaused\t0\n",
            TimerFileText.header + "\nstopwatch\trun\trunning\t5\t1,x\n",
            TimerFileText.header + "\nripple\tticker\trunning\t5\n",
            TimerFileText.header + "\nlength\ttea\t0\tends\n", TimerFileText.header + "\nlength\ttea\t60\tsoon\n",
            TimerFileText.header + "\nlength\ttea\t60\tends\nlength\ttea\t90\tends\n",
            "timerdeck-state 2\nlength\ttea\t60\tends\n",
        ] {
            #expect(SavedTimers(text: text) == nil, "\(text)")
        }
    }
}

@Suite(
    "Timers survive a restart: kept in the state file, restored by the wall-clock time that passed", .serialized,
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct TimerStateTests {
    /// A countdown, an overtime countdown on a dispatch timer, a stopwatch and two alarms (UTC).
    static let config = """
        [[timers]]
        name = "tea"
        drives = "countdown"
        countdown = 600
        start = false

        [[timers]]
        name = "eggs"
        drives = "countdown"
        countdown = 30
        overtime = true
        mechanism = "dispatch"
        first_fire = "now"
        start = false

        [[timers]]
        name = "run"
        drives = "stopwatch"
        interval = "100ms"
        start = false

        [[timers]]
        name = "lunch"
        mechanism = "alarm"
        first_fire = "01:00"

        [[timers]]
        name = "early"
        mechanism = "alarm"
        first_fire = "00:03"
        """

    /// Presses both buttons and starts the stopwatch, takes a lap at 10 s, and stops at 20 s.
    static let firstRun = "key enter\nkey down\nkey enter\nkey down\nkey s\nwait 10s\nkey L\nwait 10s\n"

    /// Runs headless in UTC with the state file `state`; returns the JSON lines and the standard output.
    private func run(
        _ script: String, state: String, in scratch: ScratchDirectory, _ extra: [String] = [], zone: String = "UTC"
    ) throws -> ChildProcess.Outcome {
        let config = try scratch.write(Self.config, to: "timers.toml")
        let path = try scratch.write(script, to: "script.txt")
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = zone
        return try ChildProcess.run(
            BuiltProduct.path("timerdeck"),
            ["--headless", "--script", path, "--config", config, "--state", state, "--json"] + extra,
            timeout: .seconds(60), environment: environment)
    }

    /// The rows of a JSON snapshot line by name.
    private func rowsOf(_ line: Substring) throws -> [String: [String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["name"] as? String ?? "", $0) })
    }

    @Test(
        "Five minutes later: the countdown has 4m40s less, overtime counts on, the stopwatch and alarms keep their time"
    )
    func restoredAfterTimeAway() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        let first = try run(Self.firstRun, state: state, in: scratch)
        #expect(first.status == 0, "\(first)")
        let kept = try String(contentsOfFile: state, encoding: .utf8)
        // Written at 00:00:20, the end of the first run.
        #expect(kept.hasPrefix(TimerFileText.header + "\nsaved\t1767225620000000000\n"), "\(kept)")
        // Each countdown's length, for `timerdeck status`.
        #expect(kept.contains("\nlength\ttea\t600\tends\n") && kept.contains("\ncountdown\ttea\trunning\t"), "\(kept)")
        // Started at 00:00:00 with 600 s: ends at 00:10:00; the second run starts at 00:05:20.
        let second = try run("wall 2026-01-01T00:05:20Z\nsnapshot\n", state: state, in: scratch)
        #expect(second.status == 0, "\(second)")
        let line = try #require(second.output.split(separator: "\n").first)
        let rows = try rowsOf(line)
        #expect(rows["tea"]?["button"] as? String == "Resend (280)", "\(line)")
        #expect(rows["eggs"]?["button"] as? String == "+04:50", "\(line)")
        #expect(rows["tea"]?["state"] as? String == "running" && rows["run"]?["state"] as? String == "running")
        #expect(rows["lunch"]?["next_fire_ns"] as? Int == 3_280_000_000_000, "\(line)")
        #expect(rows["early"]?["state"] as? String == "idle", "\(line)")
        #expect(line.contains("early rang while timerdeck was away"), "\(line)")
        let after = try String(contentsOfFile: state, encoding: .utf8)
        #expect(after.contains("stopwatch\trun\trunning\t1767225600000000000\t10000000000\n"), "\(after)")
        #expect(!after.contains("early"), "\(after)")
        // --fresh leaves them out.
        let fresh = try run("snapshot\n", state: state, in: scratch, ["--fresh"])
        let freshRows = try rowsOf(try #require(fresh.output.split(separator: "\n").first))
        #expect(freshRows["tea"]?["state"] as? String == "idle" && freshRows["run"]?["state"] as? String == "idle")
    }

    @Test("An alarm keeps its instant across a restart in another time zone, shown in the local time there")
    func alarmKeepsItsInstantAcrossZones() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        // 01:00 in New York is 06:00 UTC, 21,600 s after the start at 2026-01-01T00:00Z.
        let first = try run("wait 1s\n", state: state, in: scratch, zone: "America/New_York")
        #expect(first.status == 0, "\(first)")
        let kept = try String(contentsOfFile: state, encoding: .utf8)
        #expect(kept.contains("alarm\tlunch\trunning\t1767247200000000000\n"), "\(kept)")
        let second = try run("wall 2026-01-01T00:05:20Z\nsnapshot\n", state: state, in: scratch)
        let rows = try rowsOf(try #require(second.output.split(separator: "\n").first))
        #expect(rows["lunch"]?["next_fire_ns"] as? Int == 21_280_000_000_000, "\(second.output)")
        #expect(rows["lunch"]?["alarm_at"] as? String == "06:00", "\(second.output)")
        #expect(
            try String(contentsOfFile: state, encoding: .utf8).contains("alarm\tlunch\trunning\t1767247200000000000\n"))
    }

    @Test("On a clock set back since the file was written, countdowns and stopwatches go on from then, and say so")
    func clockSetBackKeepsWhatTheUserHad() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        _ = try run(Self.firstRun, state: state, in: scratch)
        // Kept at 00:00:20; the clock now says 23:00 the day before.
        let second = try run("wall 2025-12-31T23:00Z\nsnapshot\n", state: state, in: scratch)
        let line = try #require(second.output.split(separator: "\n").first)
        let rows = try rowsOf(line)
        #expect(rows["tea"]?["button"] as? String == "Resend (580)", "\(line)")
        #expect(rows["eggs"]?["button"] as? String == "Resend (10)", "\(line)")
        #expect(rows["run"]?["elapsed_ns"] as? Int == 20_000_000_000, "\(line)")
        #expect(rows["run"]?["lap_splits_ns"] as? [Int] == [10_000_000_000], "\(line)")
        #expect(
            line.contains("behind the time the timers were kept at: tea, eggs, run went on from where they were then"),
            "\(line)")
        // Without the line that says when (format 1), a stopwatch from the future goes on from its last lap.
        let formatOne = "timerdeck-state 1\nstopwatch\trun\trunning\t1767229200000000000\t10000000000\n"
        _ = try scratch.write(formatOne, to: "timers.state")
        let third = try run("snapshot\n", state: state, in: scratch)
        let thirdLine = try #require(third.output.split(separator: "\n").first)
        #expect(try rowsOf(thirdLine)["run"]?["elapsed_ns"] as? Int == 10_000_000_000, "\(thirdLine)")
        #expect(thirdLine.contains("run started later than now by this clock: it went on from its last lap"))
    }

    @Test("An overtime countdown that had ended before the quit is not said to have ended while away")
    func endedBeforeTheQuitIsNoNews() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        // eggs (30 s, overtime) ends at 00:00:30; the first run quits at 00:00:40.
        _ = try run("key down\nkey enter\nwait 40s\n", state: state, in: scratch)
        let second = try run("wall 2026-01-01T00:01Z\nsnapshot\n", state: state, in: scratch)
        let line = try #require(second.output.split(separator: "\n").first)
        #expect(try rowsOf(line)["eggs"]?["button"] as? String == "+00:30", "\(line)")
        #expect(!line.contains("ended while timerdeck was away"), "\(line)")
        // One that ends while away is.
        _ = try run("key down\nkey enter\nwait 10s\n", state: state, in: scratch, ["--fresh"])
        let third = try run("wall 2026-01-01T00:01Z\nsnapshot\n", state: state, in: scratch)
        #expect(third.output.contains("eggs ended while timerdeck was away: counting on"), "\(third.output)")
    }

    @Test("Held timers keep their time: a paused countdown and stopwatch come back as they were")
    func pausedStayPaused() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        _ = try run(
            "key enter\nwait 5s\nkey p\nkey down\nkey down\nkey s\nwait 3s\nkey p\nwait 2s\n", state: state, in: scratch
        )
        let second = try run("wall 2026-01-02T00:00Z\nwait 1s\nsnapshot\n", state: state, in: scratch)
        let rows = try rowsOf(try #require(second.output.split(separator: "\n").first))
        #expect(rows["tea"]?["button"] as? String == "Resend (595)", "\(second.output)")
        #expect(rows["tea"]?["state"] as? String == "suspended" && rows["run"]?["state"] as? String == "suspended")
        #expect(second.output.contains("restored 2 timers"), "\(second.output)")
        #expect(try String(contentsOfFile: state, encoding: .utf8).contains("stopwatch\trun\tpaused\t3000000000\t\n"))
    }

    @Test("A timer added with a is kept with its definition and added again at the restart, once")
    func addedTimerComesBack() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        _ = try run("key a\n\(typing("soup 3m overtime"))\nkey enter\nwait 5s\n", state: state, in: scratch)
        #expect(try String(contentsOfFile: state, encoding: .utf8).contains("added\t"))
        let second = try run("wall 2026-01-01T00:01Z\nsnapshot\n", state: state, in: scratch)
        let line = try #require(second.output.split(separator: "\n").first)
        let rows = try rowsOf(line)
        #expect(rows["soup"]?["button"] as? String == "Resend (120)", "\(line)")
        #expect(line.components(separatedBy: "\"name\":\"soup\"").count == 2, "\(line)")
        let kept = try String(contentsOfFile: state, encoding: .utf8)
        #expect(kept.components(separatedBy: "added\t").count == 2, "\(kept)")
    }

    @Test("A corrupt state file is reported, kept aside as it was and never overwritten")
    func corruptFileKeptAside() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        let garbage = "not a timers file\n\u{1}\u{2}"
        _ = try scratch.write(garbage, to: "timers.state")
        let outcome = try run("snapshot\n", state: state, in: scratch)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("the timers file was corrupt: kept aside as"), "\(outcome.output)")
        #expect(try String(contentsOfFile: state + ".corrupt", encoding: .utf8) == garbage)
        _ = try scratch.write(garbage, to: "timers.state")
        _ = try run("snapshot\n", state: state, in: scratch)
        #expect(try String(contentsOfFile: state + ".corrupt-2", encoding: .utf8) == garbage)
        #expect(try String(contentsOfFile: state + ".corrupt", encoding: .utf8) == garbage)
    }

    @Test("A state file of a newer format is said to be from a newer timerdeck and kept aside, not called corrupt")
    func newerFormatKeptAside() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        let newer = "timerdeck-state 4\ncountdown\tsms-default\trunning\t5000000000\tsomething new\n"
        _ = try scratch.write(newer, to: "timers.state")
        let outcome = try run("snapshot\n", state: state, in: scratch)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.output.contains(
                "the timers file is from a newer timerdeck (its format 4, this one reads 3 and older): kept aside as"),
            "\(outcome.output)")
        #expect(!outcome.output.contains("corrupt"), "\(outcome.output)")
        #expect(try String(contentsOfFile: state + ".newer", encoding: .utf8) == newer)
    }

    @Test("--fresh sets the saved timers aside, says where, and keeps them beside the new file")
    func freshKeepsTheOldFile() throws {
        let scratch = try ScratchDirectory()
        let state = scratch.path("timers.state").path
        _ = try run("key a\n\(typing("soup 3m overtime"))\nkey enter\nwait 5s\n", state: state, in: scratch)
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains("added\t"))
        let outcome = try run("snapshot\n", state: state, in: scratch, ["--fresh"])
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("--fresh: the saved timers were set aside: kept aside as"), "\(outcome.output)")
        #expect(try String(contentsOfFile: state + ".before-fresh", encoding: .utf8) == saved)
        #expect(!(try String(contentsOfFile: state, encoding: .utf8)).contains("soup"))
        // Without a saved file there is nothing to say.
        let again = try run("snapshot\n", state: scratch.path("none.state").path, in: scratch, ["--fresh"])
        #expect(!again.output.contains("--fresh:"), "\(again.output)")
    }
}
