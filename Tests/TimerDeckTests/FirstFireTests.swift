import Foundation
import KeptTimers
import RunLoopKit
import TestSupport
import Testing
import TimeUnits

@testable import TimerDeck

@Suite("first_fire: now, after one interval, or at a local time of day")
struct FirstFireTests {
    /// 2026-01-01T00:00:00Z, the virtual clock's wall start.
    private let newYear = VirtualClock().now(.wall)

    @Test("A time of day is HH:MM or HH:MM:SS in range; anything else is refused")
    func parsing() {
        #expect(TimerDefinition.FirstFire(text: "07:30") == .at(TimeOfDay(hour: 7, minute: 30)!))
        #expect(TimerDefinition.FirstFire(text: "23:59:59") == .at(TimeOfDay(hour: 23, minute: 59, second: 59)!))
        #expect(TimerDefinition.FirstFire(text: "now") == .now)
        #expect(TimerDefinition.FirstFire(text: "after-interval") == .afterInterval)
        for text in ["24:00", "7:30", "07:60", "07:30:60", "07-30", "", ":", "07:30:", "０７:30", "-1:30", "07:30:00:00"]
        {
            #expect(TimerDefinition.FirstFire(text: text) == nil, "\(text)")
        }
        #expect(TimerDefinition.FirstFire(text: "07:30:05")?.text == "07:30:05")
        #expect(TimerDefinition.FirstFire(text: "07:30:00")?.text == "07:30")
    }

    @Test("The next occurrence: later today, tomorrow once passed, now when it is now; in the local zone")
    func nextOccurrence() throws {
        let utc: (Instant) -> Duration = { _ in .zero }
        let shanghai: (Instant) -> Duration = { _ in .seconds(8 * 3_600) }
        let time = try #require(TimeOfDay(hour: 7, minute: 30))
        #expect(time.timeUntilNext(after: newYear, utcOffset: utc) == .seconds(7 * 3_600 + 1_800))
        // 00:00Z is 08:00 in UTC+8: 07:30 has passed, so tomorrow's, 23.5 h away.
        #expect(time.timeUntilNext(after: newYear, utcOffset: shanghai) == .seconds(23 * 3_600 + 1_800))
        let midnight = try #require(TimeOfDay(hour: 0, minute: 0))
        #expect(midnight.timeUntilNext(after: newYear, utcOffset: utc) == .zero)
        #expect(
            midnight.timeUntilNext(after: newYear + .milliseconds(1), utcOffset: utc) == .seconds(86_400)
                - .milliseconds(1))
        // Before the epoch's day boundary (a negative local reading) the arithmetic still holds.
        #expect(
            time.timeUntilNext(after: Instant(nanoseconds: -1_000_000_000), utcOffset: utc)
                == .seconds(7 * 3_600 + 1_801))
    }

    @Test("Across a change of the zone's offset the target keeps its local time (summer time starts at 02:00)")
    func offsetChange() throws {
        // UTC+1 until 01:00Z, UTC+2 from then: 03:00 local is 01:00Z, one hour after 00:00Z (01:00 local).
        let change = newYear + .seconds(3_600)
        let zone: (Instant) -> Duration = { $0 < change ? .seconds(3_600) : .seconds(7_200) }
        let three = try #require(TimeOfDay(hour: 3, minute: 0))
        #expect(three.timeUntilNext(after: newYear, utcOffset: zone) == .seconds(3_600))
    }

    @Test("On the dashboard's clock: run loop and dispatch timers first fire at the time of day, then every interval")
    @available(*, noasync)
    func dashboardTimersFireAtTheTimeOfDay() throws {
        let offset = TimeOfDay.localOffset(at: newYear)
        // The local time of day 3 s and 5 s after the virtual clock's start, in this process's zone.
        func localTime(after seconds: Int64) -> String {
            let local =
                (newYear.nanoseconds / Nanoseconds.perSecond + offset.nanoseconds / Nanoseconds.perSecond + seconds)
                % 86_400
            let parts = [local / 3_600, local / 60 % 60, local % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }
            return parts.joined(separator: ":")
        }
        let config = try Config.parse(
            """
            [[timers]]
            name = "alarm"
            interval = "10s"
            first_fire = "\(localTime(after: 3))"

            [[timers]]
            name = "wall-alarm"
            mechanism = "dispatch"
            clock = "wall"
            interval = "10s"
            first_fire = "\(localTime(after: 5))"
            """)
        let snapshots = try runHeadless("size 120x40\nwait 16s\nsnapshot\n", config: config)
        let lines = snapshots[0].screen.split(separator: "\n")
        func fireTimes(_ name: String) -> [String] {
            // Fire-log lines: "  3.000s   alarm …" (the inspector's "next in 7.0s" is not one).
            lines.compactMap { line in
                let words = line.split(separator: " ").filter { $0 != "│" && $0 != "|" }
                guard words.count > 1, words[1] == name, words[0].hasSuffix("s"),
                    words[0].split(separator: ".").last?.count == 4
                else { return nil }
                return String(words[0])
            }
        }
        #expect(fireTimes("alarm") == ["3.000s", "13.000s"], "\(snapshots[0].screen)")
        #expect(fireTimes("wall-alarm") == ["5.000s", "15.000s"], "\(snapshots[0].screen)")
    }
}

@Suite(
    "first_fire at a time of day in a zone the run names (TZ)", .serialized,
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct FirstFireZoneTests {
    @Test("TZ=Asia/Shanghai: the virtual clock starts at 08:00 local, so 08:00:02 is 2 s in and 07:59 tomorrow")
    func zoneFromTheEnvironment() throws {
        let scratch = try ScratchDirectory()
        let config = try scratch.write(
            """
            [[timers]]
            name = "soon"
            interval = "1h"
            first_fire = "08:00:02"

            [[timers]]
            name = "tomorrow"
            interval = "1h"
            first_fire = "07:59"
            """, to: "zone.toml")
        let script = try scratch.write("size 120x40\nwait 3s\nkey tab\nkey tab\nsnapshot\n", to: "zone.txt")
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "Asia/Shanghai"
        let outcome = try ChildProcess.run(
            BuiltProduct.path("timerdeck"), ["--headless", "--script", script, "--config", config],
            timeout: .seconds(60), environment: environment)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("2.000s   soon "), "\(outcome)")
        #expect(!outcome.output.contains("s   tomorrow "), "\(outcome)")
    }
}
