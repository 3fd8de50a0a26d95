import Foundation
import KeptTimers
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

/// New York's offsets in 2026 as the tz database has them: EST (UTC−5) until 2026-03-08T07:00Z,
/// EDT (UTC−4) until 2026-11-01T06:00Z, EST again after.
private let newYork: @Sendable (Instant) -> Duration = { instant in
    let seconds = instant.nanoseconds / 1_000_000_000
    return .seconds(seconds >= 1_772_953_200 && seconds < 1_793_512_800 ? -4 * 3_600 : -5 * 3_600)
}

/// Berlin's in 2026: CET (UTC+1) until 2026-03-29T01:00Z, CEST (UTC+2) until 2026-10-25T01:00Z.
private let berlin: @Sendable (Instant) -> Duration = { instant in
    let seconds = instant.nanoseconds / 1_000_000_000
    return .seconds(seconds >= 1_774_746_000 && seconds < 1_792_890_000 ? 2 * 3_600 : 3_600)
}

/// The wall-clock instant of a UTC time `YYYY-MM-DDTHH:MM`.
private func utc(_ text: String) throws -> Instant {
    try #require(LocalDateTime(text: text)).instant { _ in .zero }
}

@Suite("Alarms: one ring at a local time, its deadline an instant of the wall clock (decisions.md 9)")
struct AlarmTests {
    @Test("A date is YYYY-MM-DDTHH:MM[:SS] that exists; first_fire takes it as well as a time of day")
    func parsing() throws {
        #expect(TimerDefinition.FirstFire(text: "2026-12-24T18:00")?.text == "2026-12-24T18:00")
        #expect(TimerDefinition.FirstFire(text: "2028-02-29T00:00:30")?.text == "2028-02-29T00:00:30")
        for text in [
            "2027-02-29T00:00", "2026-13-01T00:00", "2026-04-31T10:00", "2026-12-24 18:00", "2026-12-24T18:00Z",
            "26-12-24T18:00", "2026-12-24T24:00", "2026-12-24T", "-12-24T18:00", "1969-12-31T23:59",
        ] {
            #expect(TimerDefinition.FirstFire(text: text) == nil, "\(text)")
        }
        #expect(try utc("1970-01-01T00:00") == Instant(nanoseconds: 0))
        #expect(try utc("2026-01-01T00:00") == VirtualClock().now(.wall))
    }

    @Test("Summer time starting (New York, Berlin): 01:30 is before, 03:30 after, and the skipped 02:30 is 03:30")
    func springForward() throws {
        func at(_ text: String, _ zone: (Instant) -> Duration) throws -> Instant {
            try #require(LocalDateTime(text: text)).instant(utcOffset: zone)
        }
        #expect(try at("2026-03-08T01:30", newYork) == utc("2026-03-08T06:30"))
        #expect(try at("2026-03-08T03:30", newYork) == utc("2026-03-08T07:30"))
        #expect(try at("2026-03-08T02:30", newYork) == utc("2026-03-08T07:30"))
        #expect(try at("2026-03-29T02:30", berlin) == utc("2026-03-29T01:30"))
        #expect(try at("2026-03-29T03:30", berlin) == utc("2026-03-29T01:30"))
        #expect(try at("2026-03-29T01:30", berlin) == utc("2026-03-29T00:30"))
    }

    @Test("Summer time ending (New York, Berlin): the repeated hour's time is its first, later ones are standard time")
    func fallBack() throws {
        func at(_ text: String, _ zone: (Instant) -> Duration) throws -> Instant {
            try #require(LocalDateTime(text: text)).instant(utcOffset: zone)
        }
        #expect(try at("2026-11-01T01:30", newYork) == utc("2026-11-01T05:30"))
        #expect(try at("2026-11-01T03:00", newYork) == utc("2026-11-01T08:00"))
        #expect(try at("2026-10-25T02:30", berlin) == utc("2026-10-25T00:30"))
        #expect(try at("2026-10-25T03:30", berlin) == utc("2026-10-25T02:30"))
    }

    @Test("A time of day across summer time: 03:30 is 2½ h after midnight in spring, 03:00 4 h after in autumn")
    func timeOfDayAcrossChanges() throws {
        let spring = try #require(TimeOfDay(hour: 3, minute: 30))
        #expect(try spring.timeUntilNext(after: utc("2026-03-08T05:00"), utcOffset: newYork) == .seconds(9_000))
        let autumn = try #require(TimeOfDay(hour: 3, minute: 0))
        #expect(try autumn.timeUntilNext(after: utc("2026-11-01T04:00"), utcOffset: newYork) == .seconds(14_400))
    }

    @Test("An alarm needs a local time; the fields it has no use for are refused; the a form takes NAME HH:MM")
    func definitions() throws {
        let alarm = try Config.parse("[[timers]]\nname = \"lunch\"\nmechanism = \"alarm\"\nfirst_fire = \"12:30\"\n")
        #expect(alarm.timers.first?.kind == .alarm && alarm.timers.first?.isOneShot == true)
        for extra in ["", "interval = \"1h\"\n", "mode = \"common\"\n", "repeats = false\n", "clock = \"wall\"\n"] {
            let text =
                "[[timers]]\nname = \"lunch\"\nmechanism = \"alarm\"\n" + extra
                + (extra.isEmpty ? "first_fire = \"now\"\n" : "first_fire = \"12:30\"\n")
            #expect(throws: ConfigError.self, "\(extra)") { try Config.parse(text) }
        }
        let typed = try TimerDefinition.parse(line: "party 2026-12-24T18:00", taken: [])
        #expect(typed.kind == .alarm && typed.firstFire.text == "2026-12-24T18:00")
        #expect(try TimerDefinition.parse(line: "lunch 12:30", taken: []).kind == .alarm)
        #expect(throws: ConfigError.self) { try TimerDefinition.parse(line: "lunch 12:30 once", taken: []) }
        #expect(TimerMechanism.alarm.text(typed) == "Alarm 2026-12-24T18:00 wall clock")
        #expect(TimerMechanism.alarm.lackOfModes != nil)
    }

    @Test("An alarm's ring is its end: the bell, the notification and the hook act, and the row is idle")
    func ringActs() throws {
        let config = try Config.parse(
            "[[timers]]\nname = \"lunch\"\nmechanism = \"alarm\"\nfirst_fire = \"12:30\"\nbell = true\nnotify = true\n"
                + "hook = \"echo lunch\"\n")
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let row = RowID(number: 0)
        state[row].run = .running
        let wall = VirtualClock().now(.wall) + .seconds(45_000)
        let effects = state.apply(
            .fired(
                row,
                .dispatch(
                    time: Instant(nanoseconds: 45_000_000_000_000), mode: nil, clockNow: wall, firstDue: wall, ticks: 1,
                    isManual: false)))
        #expect(effects.contains(.ring) && effects.contains(.stop(row)))
        #expect(effects.contains { if case .notify = $0 { true } else { false } })
        #expect(effects.contains { if case .runHook = $0 { true } else { false } })
        #expect(state[row].run == .idle)
    }
}

@Suite(
    "Alarms on the dashboard's virtual clock in a zone of the tz database (TZ)", .serialized,
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct AlarmZoneTests {
    /// The seconds since the start at which each timer fired, from a headless run's trace, with
    /// `config` and `script` in zone `zone`.
    private func fires(zone: String, config: String, script: String) throws -> [String: [Double]] {
        let scratch = try ScratchDirectory()
        let configPath = try scratch.write(config, to: "alarms.toml")
        let scriptPath = try scratch.write(script, to: "alarms.txt")
        let trace = scratch.path("alarms.jsonl").path
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = zone
        let outcome = try ChildProcess.run(
            BuiltProduct.path("timerdeck"),
            ["--headless", "--script", scriptPath, "--config", configPath, "--trace", trace],
            timeout: .seconds(120), environment: environment)
        #expect(outcome.status == 0, "\(outcome)")
        var fired: [String: [Double]] = [:]
        for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            guard object?["event"] as? String == "fire", let name = object?["timer"] as? String,
                let time = object?["t_ns"] as? Int
            else { continue }
            fired[name, default: []].append(Double(time) / 1e9)
        }
        return fired
    }

    private func alarms(_ times: [(String, String)]) -> String {
        times.map { "[[timers]]\nname = \"\($0)\"\nmechanism = \"alarm\"\nfirst_fire = \"\($1)\"\nbell = true\n" }
            .joined(separator: "\n")
    }

    @Test("America/New_York, summer time starting: 01:30 rings at 30 min, 03:30 and the skipped 02:30 at 1½ h")
    func springForwardInNewYork() throws {
        let fired = try fires(
            zone: "America/New_York",
            config: alarms([
                ("before", "2026-03-08T01:30"), ("after", "2026-03-08T03:30"), ("skipped", "2026-03-08T02:30"),
            ]),
            script: "wall 2026-03-08T06:00Z\nwait 2h\n")
        #expect(fired == ["before": [1_800], "after": [5_400], "skipped": [5_400]])
    }

    @Test("America/New_York, summer time ending: 01:30 (the first) at 30 min, 03:00 three hours on, not two")
    func fallBackInNewYork() throws {
        let fired = try fires(
            zone: "America/New_York",
            config: alarms([("first", "2026-11-01T01:30"), ("three", "2026-11-01T03:00")]),
            script: "wall 2026-11-01T05:00Z\nwait 4h\n")
        #expect(fired == ["first": [1_800], "three": [10_800]])
    }

    @Test("Europe/Berlin: an alarm typed as a time of day keeps its local time across both changes")
    func timeOfDayInBerlin() throws {
        let config = "[[timers]]\nname = \"idle\"\ninterval = \"24h\"\nstart = false\n"
        // Midnight local is 23:00Z before the spring change (03:30 CEST is 01:30Z: 2½ h) and 22:00Z
        // before the autumn one (03:00 CET is 02:00Z: 4 h).
        let spring = try fires(
            zone: "Europe/Berlin", config: config,
            script: "wall 2026-03-28T23:00Z\nkey a\n\(typing("wake 03:30"))\nkey enter\nwait 3h\n")
        #expect(spring["wake"] == [9_000])
        let autumn = try fires(
            zone: "Europe/Berlin", config: config,
            script: "wall 2026-10-24T22:00Z\nkey a\n\(typing("wake 03:00"))\nkey enter\nwait 4h\nwait 1h\n")
        #expect(autumn["wake"] == [14_400])
    }

    @Test("A wall-clock jump moves the ring: +1 h rings an hour sooner, −2 h two hours later, uptime timers not")
    func wallClockJumps() throws {
        // The virtual clock starts at 2026-01-01T00:00Z, 01:00 in Berlin.
        let fired = try fires(
            zone: "Europe/Berlin",
            config: alarms([("three", "2026-01-01T03:00"), ("five", "2026-01-01T05:00")])
                + "\n[[timers]]\nname = \"beat\"\ninterval = \"1h\"\n",
            script: "key e\nwait 1h\nkey w\nkey w\nwait 4h\nwait 1h\n")
        #expect(fired["three"] == [3_600])
        #expect(fired["five"] == [18_000])
        #expect(fired["beat"] == [3_600, 7_200, 10_800, 14_400, 18_000, 21_600])
    }
}

@Suite(
    "Golden snapshots of overtime and alarms beside each other, in Europe/Berlin", .serialized,
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct AlarmSnapshotTests {
    @Test("Overtime at +00:02, a countdown, an alarm rung at 01:00:03 and two still set, 5 s after the presses")
    func overtimeAndAlarms() throws {
        let scratch = try ScratchDirectory()
        let config = try scratch.write(
            """
            [[timers]]
            name = "tea"
            drives = "countdown"
            countdown = 3
            overtime = true
            start = false

            [[timers]]
            name = "eggs"
            drives = "countdown"
            countdown = 90
            mechanism = "dispatch"
            first_fire = "now"
            start = false

            [[timers]]
            name = "standup"
            mechanism = "alarm"
            first_fire = "01:00:03"
            bell = true

            [[timers]]
            name = "lunch"
            mechanism = "alarm"
            first_fire = "12:30"

            [[timers]]
            name = "party"
            mechanism = "alarm"
            first_fire = "2026-12-24T18:00"
            """, to: "everyday.toml")
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Europe/Berlin"
        for size in SnapshotTests.sizes {
            let script = try scratch.write(
                "size \(size)\nkey enter\nkey down\nkey enter\nkey down\nkey down\nwait 5s\nsnapshot\n", to: "s.txt")
            let outcome = try ChildProcess.run(
                BuiltProduct.path("timerdeck"), ["--headless", "--script", script, "--config", config],
                timeout: .seconds(60), environment: environment)
            #expect(outcome.status == 0, "\(outcome)")
            let screen = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
                .joined(separator: "\n").trimmingTrailingNewline
            GoldenScreen.check(screen, named: "everyday-\(size)")
        }
    }
}
