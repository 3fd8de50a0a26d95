import TerminalUI
import Testing

@testable import TimerDeck

@Suite("Headless script parsing")
struct HeadlessScriptTests {
    @Test("Every command parses; comments and blank lines are skipped")
    func everyCommandParses() throws {
        let script = try HeadlessScript(parsing: "size 80x24\n# comment\n\nkey enter  # go\nwait 3s\nsnapshot\nquit\n")
        #expect(script.steps == [.size(width: 80, height: 24), .key(.enter), .wait(.seconds(3)), .snapshot, .quit])
    }

    @Test("CRLF line ends parse like LF ones, and errors keep their line number")
    func crlfScriptsParse() throws {
        let script = try HeadlessScript(parsing: "size 80x24\r\nkey q\r\nwait 1s\r\nsnapshot\r\n")
        #expect(script.steps == [.size(width: 80, height: 24), .key(.character("q")), .wait(.seconds(1)), .snapshot])
        #expect(
            throws: HeadlessScript.ParseError(
                message: "s.txt:3: unknown command \"jump\" (known: size, key, wait, wall, snapshot, quit)")
        ) {
            try HeadlessScript(parsing: "size 80x24\r\nkey q\r\njump 3\r\n", source: "s.txt")
        }
    }

    @Test("Key names: a single character, or a known name in any case")
    func keyNames() throws {
        let script = try HeadlessScript(parsing: "key enter\nkey SHIFT-TAB\nkey pgdn\nkey q\nkey space\nkey wheel-up")
        #expect(
            script.steps == [
                .key(.enter), .key(.shiftTab), .key(.pageDown), .key(.character("q")), .key(.character(" ")),
                .key(.mouse(MouseEvent(kind: .wheelUp, row: 0, column: 0))),
            ])
    }

    @Test(
        "Every error names its line and what is accepted",
        arguments: [
            ("size 80x24\nwait soon", "s.txt:2: wait \"soon\" — expected a duration 1ms…4h such as 250ms, 3s or 5m"),
            ("\n\nkey jump", "s.txt:3: unknown key \"jump\" (use a single character or one of: enter, tab,"),
            ("key", "s.txt:1: 'key' needs a key name"),
            ("size 80", "s.txt:1: size \"80\" — expected size WxH with each side 1…1000, e.g. size 80x24"),
            ("size -80x24", "s.txt:1: size \"-80x24\" — expected size WxH"),
            ("size 0x24", "s.txt:1: size \"0x24\" has a side of 0 (accepted: size WxH with each side 1…1000"),
            ("snapshot now", "s.txt:1: 'snapshot' takes no argument (found \"now\")"),
        ])
    func errorsNameTheLine(text: String, expected: String) {
        #expect(parseError(text).hasPrefix(expected), "\(parseError(text))")
    }

    @Test("A too-large size reports the maximum, even beyond Int")
    func tooLargeSizeReportsMaximum() {
        #expect(parseError("size 5000x24") == "s.txt:1: size \"5000x24\" is larger than the maximum, 1000x1000")
        #expect(parseError("size 80x99999999999999999999999").hasSuffix("is larger than the maximum, 1000x1000"))
    }

    @Test("A duration that overflows is an error with the accepted range, not a trap (exit 132)")
    func overflowingWaitIsAnError() {
        #expect(
            parseError("wait 200000000000000000m").hasPrefix(
                "s.txt:1: wait \"200000000000000000m\" — expected a duration 1ms…4h"))
    }

    @Test("A single wait is capped, and the message says the cap")
    func singleWaitIsCapped() throws {
        #expect(try HeadlessScript(parsing: "wait 4h").steps == [.wait(.seconds(4 * 3_600))])
        #expect(parseError("wait 999999h").hasSuffix("a single wait is at most 4h, write several for longer"))
        #expect(parseError("wait 0ms").contains("expected a duration 1ms…4h"))
    }

    @Test("A huge argument is quoted as a short prefix with its length")
    func hugeArgumentIsCut() {
        let message = parseError("key " + String(repeating: "x", count: 1_000_000))
        #expect(message.count < 400, "\(message.prefix(500))")
        #expect(message.contains("\"" + String(repeating: "x", count: 40) + "…\" (1000000 characters)"))
    }

    @Test("Control characters in an argument are escaped in the message")
    func controlCharactersAreEscaped() {
        #expect(
            parseError("key a\u{1B}[2J\0")
                == "s.txt:1: unknown key \"a\\u{1B}[2J\\0\" (use a single character or one of: "
                + "enter, tab, shift-tab, esc, backspace, delete, up, down, left, right, pgup, pgdn, home, end, space, wheel-up, wheel-down)"
        )
    }

    private func parseError(_ text: String) -> String {
        do {
            _ = try HeadlessScript(parsing: text, source: "s.txt")
            return "(no error)"
        } catch {
            return error.message
        }
    }
}
