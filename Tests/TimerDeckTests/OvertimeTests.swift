import RunLoopKit
import Testing

@testable import TimerDeck

@Suite("overtime: a countdown that counts on past its end as +MM:SS")
struct OvertimeTests {
    @Test("The label counts up from +00:00 at the end; from an hour on it shows the hours")
    func labelCountsUp() {
        var button = Countdown(seconds: 2, overtime: true)
        button.press()
        button.tick()
        #expect(button.label == "Resend (01)")
        button.tick()
        #expect(button.label == "+00:00" && button.isOvertime && !button.isEnabled)
        for _ in 0..<83 { button.tick() }
        #expect(button.label == "+01:23")
        button.show(remaining: -3_600)
        #expect(button.label == "+1:00:00")
        button.cancel()
        #expect(button.label == "Send" && button.isEnabled)
    }

    @Test("A deadline-driven button past its end shows the seconds since; without overtime it is Send")
    func deadlineDrivenOvertime() {
        var button = Countdown(seconds: 60, overtime: true)
        button.press()
        button.show(remaining: -42)
        #expect(button.label == "+00:42")
        var plain = Countdown(seconds: 60)
        plain.press()
        plain.show(remaining: -42)
        #expect(plain.label == "Send")
    }

    @Test("The end rings once and the timer goes on; Enter then ends the overtime")
    func endActsOnceAndTheTimerGoesOn() throws {
        let config = try Config.parse(
            "[[timers]]\nname = \"tea\"\ndrives = \"countdown\"\ncountdown = 2\novertime = true\nact_on = \"end\"\n"
                + "bell = true\nstart = false")
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let row = RowID(number: 0)
        _ = state.apply(.key(.enter))
        func fire(_ seconds: Int64) -> [Effect] {
            state.apply(
                .fired(
                    row,
                    .timer(
                        time: Instant(nanoseconds: seconds * 1_000_000_000), mode: .default, lateness: .zero, ticks: 1,
                        isManual: false)))
        }
        #expect(!fire(1).contains(.ring))
        let atEnd = fire(2)
        #expect(atEnd.contains(.ring) && !atEnd.contains(.stop(row)))
        #expect(state[row].button?.label == "+00:00" && state[row].run == .running)
        let after = fire(3)
        #expect(!after.contains(.ring) && !after.contains(.stop(row)))
        #expect(state[row].button?.label == "+00:01")
        let press = state.apply(.key(.enter))
        #expect(press.contains(.stop(row)))
        #expect(state[row].button?.label == "Send" && state[row].run == .idle)
    }

    @Test("On the dashboard: a run loop and a dispatch countdown read +00:02 two seconds past their end")
    func headlessOvertime() throws {
        let config = try Config.parse(
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
            mechanism = "dispatch"
            first_fire = "now"
            countdown = 3
            overtime = true
            start = false
            """)
        let snapshots = try runHeadless(
            "size 80x24\nkey enter\nkey down\nkey enter\nwait 5s\nsnapshot\n", config: config)
        let screen = snapshots[0].screen
        #expect(line(screen, containing: "tea ·").contains("[ +00:02"), "\(screen)")
        #expect(line(screen, containing: "eggs ·").contains("[ +00:02"), "\(screen)")
    }

    @Test("The a form: countdown and overtime make an SMS countdown as long as the interval, on a 1 s timer")
    func addForm() throws {
        let timer = try TimerDefinition.parse(line: "tea 3m overtime dispatch", taken: [])
        #expect(timer.drives == .countdown && timer.overtime && timer.countdownSeconds == 180)
        #expect(timer.interval == .seconds(1) && timer.kind == .dispatch)
        #expect(try TimerDefinition.parse(line: "tea 90s countdown", taken: []).overtime == false)
        for line in ["tea 1500ms countdown", "tea 25h overtime"] {
            #expect(throws: ConfigError.self, "\(line)") { try TimerDefinition.parse(line: line, taken: []) }
        }
    }

    @Test("overtime on a timer that drives no countdown is refused, not ignored")
    func overtimeWithoutCountdownIsRefused() {
        #expect(throws: ConfigError.self) { try Config.parse("[[timers]]\nname = \"tea\"\novertime = true\n") }
    }
}
