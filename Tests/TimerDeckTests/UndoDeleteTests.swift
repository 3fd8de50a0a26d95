import Testing

@testable import TimerDeck

/// `d` then `u`, told in the plain mode's lines and report.
extension PlainModeTests {
    @Test("u puts a running countdown back as it was: selected again, its seconds left and their grid")
    func undoKeepsACountdownsTimeLeft() throws {
        let lines = try plainLines(
            "key enter\nwait 5500ms\nkey d\nwait 2s\nkey u\nkey r\nwait 500ms\nkey r\nquit\n", config: scene)
        #expect(lines.contains("put back sms-default as it was, running"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("selected sms-default in the countdowns panel: ") }, "\(lines)")
        let reports = lines.filter { $0.hasPrefix("at ") }
        // Pressed at 0 s with 60 s: it ends at 60 s whatever happened between.
        #expect(reports.first?.hasPrefix("at 7.500s: sms-default running (default, in 500ms, Resend (53)); ") == true)
        #expect(reports.last?.hasPrefix("at 8.000s: sms-default running (default, in 1.0s, Resend (52)); ") == true)
    }

    @Test("u puts a running stopwatch back with its time and laps")
    func undoKeepsAStopwatchsTimeAndLaps() throws {
        let lines = try plainLines(
            "key down\nkey s\nwait 3s\nkey L\nwait 1s\nkey d\nwait 2s\nkey u\nkey r\nquit\n", config: everydayConfig())
        #expect(lines.contains("put back run as it was, running"), "\(lines)")
        let report = try #require(lines.last)
        #expect(report.contains("run running (") && report.contains(", 00:06.0 run, 1 lap)"), "\(report)")
    }
}
