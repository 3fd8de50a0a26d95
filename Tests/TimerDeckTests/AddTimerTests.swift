import KeptTimers
import Testing

@testable import TimerDeck

@Suite("a: a timer added from the keyboard, checked as it is typed, is a row like the others")
struct AddTimerTests {
    @Test("The form says what is wrong as the user types, and Enter keeps it open while it is wrong")
    func validationAsTheUserTypes() throws {
        let snapshots = try runHeadless(
            """
            size 120x40
            key a
            \(typing("tea 0"))
            snapshot
            key s
            key enter
            snapshot
            \(typing(" cron"))
            snapshot
            """)
        #expect(
            snapshots[0].screen.contains(
                "field 'timers.interval' = \"0\" is invalid (accepted: a duration 1ms…24h"))
        #expect(snapshots[1].screen.contains("field 'timers.interval' = \"0s\" is invalid"))
        #expect(snapshots[2].screen.contains("\"cron\" is not runloop, dispatch, task, once"))
    }

    @Test("C-T5/G2: a one-shot dispatch timer added with a runs, fires once, and the inspector shows it")
    func addedTimerRuns() throws {
        let snapshots = try runHeadless(
            """
            size 120x40
            wait 500ms
            key a
            \(typing("tea 2s dispatch once"))
            key enter
            snapshot
            wait 2s
            snapshot
            """)
        #expect(snapshots[0].screen.contains("added tea"))
        #expect(line(snapshots[0].screen, containing: "tea ").contains("DispatchTimer 2s once any mode running"))
        #expect(snapshots[1].screen.contains("2.500s   tea"))
        #expect(line(snapshots[1].screen, containing: "tea  ").contains("idle"))
    }

    @Test("A clock time out of range is said to be no clock time, not a bad interval; a real one is an alarm")
    func clockTimeOutOfRange() throws {
        for text in ["25:99", "12:60", "24:00", "2026-02-30T10:00"] {
            let error = #expect(throws: ConfigError.self) {
                try TimerDefinition.parse(line: "lunch \(text)", taken: [])
            }
            #expect(error?.message.hasPrefix("\"\(text)\" is not a clock time") == true, "\(String(describing: error))")
            #expect(error?.message.contains("interval") == false)
        }
        #expect(try TimerDefinition.parse(line: "lunch 12:30", taken: []).kind == .alarm)
        #expect(try TimerDefinition.parse(line: "tea 3m", taken: []).interval == .seconds(180))
    }

    @Test("A countdown runs up to a day, and its big digits show the hours")
    func countdownsUpToADay() throws {
        #expect(try TimerDefinition.parse(line: "focus 90m countdown", taken: []).countdownSeconds == 5_400)
        #expect(try TimerDefinition.parse(line: "shift 24h countdown", taken: []).countdownSeconds == 86_400)
        let error = #expect(throws: ConfigError.self) {
            try TimerDefinition.parse(line: "long 25h countdown", taken: [])
        }
        #expect(error?.message.contains("1s…24h") == true, "\(String(describing: error))")
        #expect(
            try Config.parse("[[timers]]\nname = \"focus\"\ndrives = \"countdown\"\ncountdown = 5400").timers[0]
                .countdownSeconds == 5_400)
        #expect(ClockText.countdown(seconds: 5_400) == "1:30:00")
    }

    @Test("A taken name is refused")
    func takenNameIsRefused() throws {
        #expect(throws: ConfigError.self) { try TimerDefinition.parse(line: "sms-gcd 1s", taken: ["sms-gcd"]) }
        #expect(throws: ConfigError.self) { try TimerDefinition.parse(line: "tea", taken: []) }
        #expect(try TimerDefinition.parse(line: "tea 1s common", taken: []).mode == .common)
        #expect(try TimerDefinition.parse(line: "nap 1s task", taken: []).kind == .task)
    }
}

@Suite("The a form stays in view while it is open")
struct AddTimerFormInViewTests {
    @Test("A message while the form is open is shown after it, never instead of it; Esc gives the line back")
    func formStaysInView() throws {
        var state = DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: DashboardLayout.minimumSize)
        _ = state.apply(.launch)
        _ = state.apply(.key(.character("a")))
        for character in "tea 3m" { _ = state.apply(.key(.character(character))) }
        #expect(state.statusLine == "add timer: tea 3m\(Prompt.cursor)")
        _ = state.apply(.notice("uploads resumed"))
        #expect(state.statusLine == "add timer: tea 3m\(Prompt.cursor)  · uploads resumed")
        _ = state.apply(.key(.escape))
        #expect(state.statusLine == "cancelled")
    }
}
