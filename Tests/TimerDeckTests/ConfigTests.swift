import RunLoopKit
import Testing
@testable import TimerDeck

@Suite("Config and script parsing (decisions.md 13)")
struct ConfigTests {
    @Test("The shipped default config parses to the built-in defaults")
    func shippedConfigMatchesDefaults() throws {
        let path = String(#filePath.dropLast("Tests/TimerDeckTests/ConfigTests.swift".count)) + "Resources/timerdeck.toml"
        let config = try Config.load(from: path)
        #expect(config == Config())
    }

    @Test("Every field is read")
    func fieldsAreRead() throws {
        let config = try Config.parse("""
            [countdown]
            seconds = 30
            [ticker]
            fps = 30
            mode = "common"
            [gesture]
            quiet = "400ms"
            [log]
            capacity = 50
            [terminal]
            mouse = false
            """)
        #expect(config.countdownSeconds == 30 && config.tickerFPS == 30 && config.tickerMode == .common)
        #expect(config.gestureQuiet == .milliseconds(400) && config.logCapacity == 50 && !config.mouse)
    }

    @Test("decision 13: out-of-range, negative, non-numeric and sub-millisecond values name field, value and range",
          arguments: [
              ("[ticker]\nfps = 0", "field 'ticker.fps' = 0 is invalid (accepted: an integer 1…240)"),
              ("[countdown]\nseconds = -5", "field 'countdown.seconds' = -5 is invalid (accepted: an integer 1…3600)"),
              ("[ticker]\nfps = \"fast\"", "field 'ticker.fps' = \"fast\" is invalid (accepted: an integer 1…240)"),
              ("[gesture]\nquiet = \"0ms\"", "field 'gesture.quiet' = \"0ms\" is invalid (accepted: a duration 1ms…10.0s"),
              ("[gesture]\nquiet = \"soon\"", "field 'gesture.quiet' = \"soon\" is invalid"),
              ("[ticker]\nmode = \"scrolling\"", "field 'ticker.mode' = \"scrolling\" is invalid (accepted: \"default\", \"tracking\" or \"common\")"),
          ])
    func invalidValuesAreNamed(text: String, expected: String) {
        #expect(throws: ConfigError.self) { try Config.parse(text) }
        do {
            _ = try Config.parse(text)
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test("Unknown fields and malformed TOML are errors with a place")
    func unknownFieldsAndSyntaxErrors() {
        do {
            _ = try Config.parse("[ticker]\nfsp = 60", source: "my.toml")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("my.toml: unknown field 'ticker.fsp'"))
        }
        do {
            _ = try Config.parse("[ticker\nfps = 60", source: "my.toml")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("my.toml:1:"))
        }
    }

    @Test("decision 13: --fps is range-checked")
    func fpsOptionIsChecked() throws {
        #expect(try Config.validateFPS(30) == 30)
        #expect(throws: ConfigError(message: "option --fps: 500 is out of range (accepted: 1…240)")) {
            try Config.validateFPS(500)
        }
    }

    @Test("Durations parse as 250ms, 3s, 5m and reject the rest")
    func durationText() {
        #expect(DurationText.parse("250ms") == .milliseconds(250))
        #expect(DurationText.parse(" 3s ") == .seconds(3))
        #expect(DurationText.parse("5m") == .seconds(300))
        #expect(DurationText.parse("-3s") == nil)
        #expect(DurationText.parse("3") == nil)
        #expect(DurationText.parse("1.5s") == nil)
        #expect(DurationText.format(.milliseconds(850)) == "850ms")
        #expect(DurationText.format(.milliseconds(12_500)) == "12.5s")
        #expect(DurationText.format(.seconds(245)) == "4m05s")
    }

    @Test("Headless scripts parse every command and name the bad line")
    func headlessScript() throws {
        let script = try HeadlessScript(parsing: "size 80x24\n# comment\nkey enter\nwait 3s\nsnapshot\nquit\n")
        #expect(script.steps == [.size(width: 80, height: 24), .key("enter"), .wait(.seconds(3)), .snapshot, .quit])
        #expect(throws: HeadlessScript.ParseError(message: "s.txt:2: 'wait soon' — expected a duration such as 250ms, 3s or 5m")) {
            try HeadlessScript(parsing: "size 80x24\nwait soon", source: "s.txt")
        }
        #expect(throws: HeadlessScript.ParseError.self) { try HeadlessScript(parsing: "jump 3") }
    }

    @Test("The fire log keeps the newest records up to its capacity")
    func fireLogIsBounded() {
        var log = FireLog(capacity: 3)
        for index in 0..<5 {
            log.append(FireRecord(time: Instant(nanoseconds: Int64(index)), timer: "t\(index)", mode: .default, lateness: .zero, ticks: 1))
        }
        #expect(log.count == 3 && log.totalAppended == 5)
        #expect(log[0].timer == "t2" && log[2].timer == "t4")
    }

    @Test("The ripple is a pure function of the frame")
    func rippleIsDeterministic() {
        let first = Ripple.render(frame: 42, width: 30, height: 6)
        #expect(first == Ripple.render(frame: 42, width: 30, height: 6))
        #expect(first != Ripple.render(frame: 43, width: 30, height: 6))
        #expect(first.count == 6 && first.allSatisfy { $0.count == 30 })
    }
}
