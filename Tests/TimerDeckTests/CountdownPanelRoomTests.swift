import KeptTimers
import RunLoopKit
import Testing

@testable import TimerDeck

@Suite("Room for every timer: the SMS panel grows and scrolls, and a countdown says when it ends")
struct CountdownPanelRoomTests {
    /// Seven countdowns (the first 180 s long) and a stopwatch.
    static func manyTimers() throws -> Config {
        var text = "[[timers]]\nname = \"tea\"\ndrives = \"countdown\"\ncountdown = 180\nstart = false\n"
        for number in 2...7 {
            text += "\n[[timers]]\nname = \"c\(number)\"\ndrives = \"countdown\"\ncountdown = 60\nstart = false\n"
        }
        text += "\n[[timers]]\nname = \"run\"\ndrives = \"stopwatch\"\ninterval = \"100ms\"\nstart = false\n"
        return try Config.parse(text)
    }

    @Test("Eight rows: all listed on a tall terminal; on 80×24 the selection scrolls them and the title says which")
    func growsAndScrolls() throws {
        let config = try Self.manyTimers()
        let tall = try runHeadless("size 100x30\nsnapshot\n", config: config)[0].screen
        for name in ["tea ·", "c7 ·", "run · stopwatch"] { #expect(tall.contains(name), "\(name)\n\(tall)") }
        let downs = String(repeating: "key down\n", count: 7)
        let small = try runHeadless("size 80x24\nsnapshot\n" + downs + "snapshot\n", config: config)
        #expect(small[0].screen.contains("SMS resend (S1) · 1–6 of 8"), "\(small[0].screen)")
        #expect(!small[0].screen.contains("run · stopwatch"))
        #expect(small[1].screen.contains("SMS resend (S1) · 3–8 of 8"), "\(small[1].screen)")
        #expect(small[1].screen.contains("▶ [ 00:00.0      ] run · stopwatch"), "\(small[1].screen)")
    }

    @Test("A fifth countdown from the a form is added, not refused")
    func fifthFromTheForm() throws {
        let screen = try runHeadless(
            "size 100x30\nkey a\n" + typing("soup 2m countdown") + "\nkey enter\nsnapshot\n",
            config: try Self.manyTimers()
        )[0].screen
        #expect(screen.contains("soup · Timer in default"), "\(screen)")
    }

    @Test("A running countdown ends at a local time: later by a pause, moved by a change of the wall clock")
    func endsAt() throws {
        let config = try Self.manyTimers()
        let start = VirtualClock().now(.wall)
        let ends = { (seconds: Int64) in
            "tea · Timer in default · ends " + LocalDateTime(localTimeOf: start + .seconds(seconds))!.time.clockText
        }
        let snapshots = try runHeadless(
            "size 100x30\nkey enter\nwait 2s\nsnapshot\nkey p\nwait 10s\nsnapshot\nkey p\nsnapshot\n"
                + "wall 2026-01-01T05:00:12Z\nwait 1s\nsnapshot\n", config: config)
        #expect(snapshots[0].screen.contains(ends(180)), "\(snapshots[0].screen)")
        #expect(!snapshots[1].screen.contains("· ends "), "held: no end yet")
        #expect(snapshots[2].screen.contains(ends(190)), "\(snapshots[2].screen)")
        // The clock set to 05:00:12 with 178 s left, a second later: 177 s, from 05:00:13.
        #expect(snapshots[3].screen.contains(ends(5 * 3_600 + 13 + 177)), "\(snapshots[3].screen)")
    }
}
