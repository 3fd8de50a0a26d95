import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

/// The plain mode's lines (`--plain`), from the state machine on the virtual clock: exact lines, in
/// the order of the events.
@Suite("The plain mode")
struct PlainModeTests {
    /// The lines a headless run in the plain mode writes for `script`.
    @available(*, noasync)
    func plainLines(_ script: String, config: Config = Config()) throws -> [String] {
        var lines: [String] = []
        let uploads =
            config.hasUploads ? try UploadsSetup(config: config, outboxPath: nil, uploadURL: nil, headless: true) : nil
        let session = try HeadlessSession(
            config: config, uploads: uploads, script: HeadlessScript(parsing: script), plain: true
        ) { lines.append($0) }
        session.run()
        return lines
    }

    /// An overtime countdown `tea` (2 s), a stopwatch `run` and an alarm `lunch` at 12:30.
    func everydayConfig() throws -> Config {
        try Config.parse(
            """
            [[timers]]
            name = "tea"
            drives = "countdown"
            countdown = 2
            overtime = true
            start = false

            [[timers]]
            name = "run"
            drives = "stopwatch"
            interval = "100ms"
            start = false

            [[timers]]
            name = "lunch"
            mechanism = "alarm"
            first_fire = "12:30"
            """)
    }

    /// What a selection line says the row's keys do.
    static let rowKeys = "(s starts or stops it, p suspends, m moves, f fires, x invalidates)"

    @Test("Tab, the arrows and ? are told: the panel and timer selected, the key list as lines")
    func selectionAndKeyListNarrated() throws {
        let lines = try plainLines("key down\nkey tab\nkey ?\nquit\n", config: scene)
        #expect(lines.contains("selected sms-common in the countdowns panel: idle, common \(Self.rowKeys)"))
        #expect(lines.contains { $0.hasPrefix("selected ticker in the ticker panel: ") }, "\(lines)")
        let end = try #require(lines.firstIndex(of: "end of the key list; ? or Esc closes it"), "\(lines)")
        let start = try #require(lines.lastIndex { $0.hasPrefix("selected ") }) + 1
        let list = lines[start..<end]
        #expect(list.count > 10, "the key list, a line per key: \(lines)")
        #expect(list.allSatisfy { !$0.isEmpty && $0 == $0.trimmingCharacters(in: .whitespaces) }, "\(list)")
    }

    /// The standard scene's SMS rows and ripple, without the upload jobs.
    var scene: Config {
        var config = Config()
        config.timers = config.timers.filter { !$0.drives.isUploadJob }
        return config
    }

    @Test("M2: starts, fires with mode and lateness, a tracking run pausing and resuming default-mode timers, a move")
    func trackingNarrated() throws {
        let lines = try plainLines(
            "key enter\nkey down\nkey enter\nwait 1500ms\nkey t\nwait 1s\nsnapshot\nkey t\nwait 100ms\nkey m\nquit\n",
            config: scene)
        #expect(
            lines == [
                "ticker started in default mode",
                "sms-default started in default mode",
                "selected sms-common in the countdowns panel: idle, common \(Self.rowKeys)",
                "sms-common started in common mode",
                "sms-default fired in default mode",
                "sms-common fired in default mode",
                "tracking: default-mode timers paused (sms-default, ticker)",
                "sms-common fired in tracking mode",
                "at 2.500s: sms-default waiting for mode (default, due, Resend (59)); sms-common running (common, "
                    + "in 500ms, Resend (58)); sms-gcd idle (any mode, Send); ticker waiting for mode (default, due)",
                "tracking: default-mode timers resumed (sms-default, ticker)",
                "ticker fired in default mode, 60 ticks at once",
                "sms-default fired in default mode, 500ms late",
                "sms-common moved to default mode",
            ])
    }

    @Test("Suspend, resume, invalidate, start, a refused key each time it is pressed, and r's report line")
    func rowChangesNarrated() throws {
        let lines = try plainLines(
            "key down\nkey down\nkey enter\nwait 1s\nkey p\nkey p\nkey m\nkey m\nkey x\nkey s\nkey m\nkey r\nquit\n",
            config: scene)
        #expect(
            lines == [
                "ticker started in default mode",
                "selected sms-common in the countdowns panel: idle, common \(Self.rowKeys)",
                "selected sms-gcd in the countdowns panel: idle, any mode \(Self.rowKeys)",
                "sms-gcd started on its queue",
                "sms-gcd fired in default mode",
                "sms-gcd suspended",
                "sms-gcd resumed",
                "sms-gcd: a dispatch timer has no run loop mode: its events reach the loop in any mode (G1)",
                "sms-gcd: a dispatch timer has no run loop mode: its events reach the loop in any mode (G1)",
                "sms-gcd invalidated",
                "sms-gcd started on its queue",
                "sms-gcd fired in default mode",
                "sms-gcd: a dispatch timer has no run loop mode: its events reach the loop in any mode (G1)",
                "at 1.000s: sms-default idle (default, Send); sms-common idle (common, Send); sms-gcd running "
                    + "(any mode, in 1.0s, Resend (60)); ticker running (default, in 16ms)",
            ])
    }

    @Test("A timer added with the a form, and one deleted with d, is told")
    func addAndDelete() throws {
        let lines = try plainLines(
            "key a\nkey t\nkey e\nkey a\nkey space\nkey 2\nkey s\nkey enter\nwait 2s\nkey d\nquit\n", config: scene)
        #expect(lines.contains("tea added, started in default mode"))
        #expect(lines.contains("tea fired in default mode"))
        #expect(
            lines.suffix(3) == [
                "sms-default deleted", "selected sms-common in the countdowns panel: idle, common \(Self.rowKeys)",
                "deleted sms-default: u puts it back",
            ])
    }

    @Test("An alarm rings, an overtime countdown passes its end, a stopwatch takes a lap: each told as such")
    func everydayTimersNarrated() throws {
        var state = DashboardState(
            scene: .standard(try everydayConfig(), uploadsLabel: nil), size: DashboardLayout.minimumSize)
        _ = state.apply(.launch)
        var narration = PlainNarration(state, commonModes: [.default])
        func told(_ event: Event) -> [String] {
            let first = state.log.totalAppended
            _ = state.apply(event)
            return narration.lines(after: event, state: state, firstNewEntry: first, commonModes: [.default])
        }
        func fired(_ row: RowID, at seconds: Int64) -> Event {
            .fired(
                row,
                .timer(
                    time: Instant(nanoseconds: seconds * 1_000_000_000), mode: .default, lateness: .zero, ticks: 1,
                    isManual: false))
        }
        let id = { (name: String) in state.rows.first { $0.name == name }!.id }
        let (tea, run, lunch) = (id("tea"), id("run"), id("lunch"))
        _ = told(.key(.enter))
        #expect(told(fired(tea, at: 1)) == ["tea fired in default mode"])
        // A countdown's later fires are told by what is left, and its end.
        #expect(told(fired(tea, at: 2)) == ["tea passed its end: counting on in overtime (+00:00)"])
        #expect(told(fired(tea, at: 3)) == [])
        _ = told(.stopwatch(run, .start, time: .zero))
        #expect(
            told(.stopwatch(run, .lap, time: Instant(nanoseconds: 62_300_000_000)))
                == ["run: lap 1 01:02.3, split 01:02.3"])
        #expect(told(fired(lunch, at: 5)) == ["lunch rang: alarm at 12:30", "lunch stopped"])
    }

    @Test("r tells a countdown's overtime, a stopwatch's time run and laps, an alarm's wall-clock time")
    func reportOfEverydayTimers() throws {
        let lines = try plainLines(
            "key enter\nkey down\nkey s\nwait 3s\nkey L\nwait 500ms\nkey r\nquit\n", config: everydayConfig())
        let report = try #require(lines.last)
        #expect(report.hasPrefix("at 3.500s: tea running (default, "), "\(report)")
        #expect(report.contains(", +00:01); run running ("), "\(report)")
        #expect(report.contains(", 00:03.5 run, 1 lap); lunch "), "\(report)")
        #expect(report.hasSuffix(", alarm at 12:30)"), "\(report)")
    }

    @Test("On the screen, r shows every timer's state in the status bar")
    func reportOnScreen() throws {
        let snapshots = try runHeadless("size 120x40\nkey r\nsnapshot\n", config: scene)
        #expect(line(snapshots[0].screen, containing: "at 0.000s: sms-default idle (default, Send);") != "")
    }
}

@Suite("Raw key bytes")
struct RawKeyTests {
    @Test("Bytes read raw decode to keys: UTF-8, control keys and escape sequences")
    func bytesDecode() {
        #expect(
            KeyDecoder.decode(bytes: Array("q定\r\t\u{1B}[5~\u{1B}OA\u{7F}".utf8))
                == [.character("q"), .character("定"), .enter, .tab, .pageUp, .up, .backspace])
        #expect(KeyDecoder.decode(bytes: [0xE5, 0xAE]) == [], "a character cut at the end is dropped")
    }
}
