import Testing

@testable import TimerDeck

/// A long plain session read as a screen reader reads it: line by line, each on its own.
extension PlainModeTests {
    /// Ten minutes of every kind of timer, the form, the key list, the pages and the laps, with a
    /// report (`snapshot`) at the end of each minute to tell the minutes apart.
    static let tenMinuteScript =
        "key enter\nkey down\nkey enter\nkey down\nkey enter\nkey t\nwait 5s\nkey t\n"
        + "key a\n" + typing("beat 1s") + "\nkey tab\nkey enter\n"
        + "key a\n" + typing("tea 4m overtime") + "\nkey enter\n"
        + "key ?\nkey esc\nkey 5\nkey 1\nkey v\nkey esc\n"
        + String(repeating: "wait 1m\nsnapshot\n", count: 10) + "quit\n"

    /// Whether `line` is the subject's fire or a countdown's mark: the lines the rate limit counts.
    static func isFireOrMark(_ line: String, of name: String) -> Bool {
        line.hasPrefix("\(name) fired") || line.hasPrefix("\(name): ") && line.contains(" left")
            || line.hasPrefix("\(name): ") && line.contains(" past its end")
    }

    @Test(
        "10 minutes of plain lines: no box, block or braille character, each stands alone, ≤ 6 a minute a timer, ≤ 300 characters a minute"
    )
    func tenMinuteTranscriptReadsAloud() throws {
        let lines = try plainLines(Self.tenMinuteScript, config: scene)
        for line in lines {
            let scalars = line.unicodeScalars
            #expect(!scalars.contains { (0x2500...0x259F).contains($0.value) }, "box drawing or block: \(line)")
            #expect(!scalars.contains { (0x2800...0x28FF).contains($0.value) }, "braille: \(line)")
            #expect(!scalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "a control character: \(line)")
            #expect(line.first?.isWhitespace == false, "no indent, no wrapped remainder: \(line)")
            #expect(line.contains { $0.isLetter }, "says something: \(line)")
        }
        // The typed form is echoed once, not a line per keystroke.
        #expect(lines.filter { $0.contains("beat 1") }.count >= 1)
        #expect(!lines.contains { $0.hasPrefix("add timer: b") && $0 != "add timer: beat 1s" }, "\(lines)")
        #expect(lines.contains("you typed: beat 1s"))
        #expect(lines.contains("add timer: beat 1s"))

        let minutes = lines.split { $0.hasPrefix("at ") && $0.contains("s: ") }
        #expect(minutes.count >= 10, "a report at each minute")
        for (minute, told) in minutes.enumerated() {
            for name in ["beat", "tea", "sms-default", "sms-common", "sms-gcd", "ticker"] {
                let count = told.filter { Self.isFireOrMark($0, of: name) }.count
                #expect(count <= 6, "minute \(minute): \(count) lines for \(name): \(Array(told))")
            }
            // What a screen reader speaks in a minute nobody pressed a key, less the report the
            // script asked for: 300 characters are about 20 s of espeak-ng at its default rate.
            guard minute > 0 else { continue }
            let spoken = told.dropFirst().reduce(0) { $0 + $1.count + 1 }
            #expect(spoken <= 300, "minute \(minute): \(spoken) characters: \(Array(told))")
        }
        // A steady timer is told less and less: 10 s after its first fire, then 20 s, 40 s, and
        // then each minute. The positive control: the counts told add up to its fires.
        let beat = lines.filter { $0.hasPrefix("beat fired in default mode") }
        #expect(
            beat.prefix(6) == [
                "beat fired in default mode", "beat fired in default mode (10 fires in 10.0s)",
                "beat fired in default mode (20 fires in 20.0s)", "beat fired in default mode (40 fires in 40.0s)",
                "beat fired in default mode (60 fires in 1m00s)", "beat fired in default mode (60 fires in 1m00s)",
            ], "\(beat)")
        let toldFires = beat.reduce(0) { total, line in
            total + (line.split(separator: "(").last.flatMap { Int($0.prefix { $0.isNumber }) } ?? 1)
        }
        #expect((540...600).contains(toldFires), "beat's lines count \(toldFires) fires: \(beat)")
        #expect(lines.contains("tea: 1 minute left"))
        #expect(lines.contains("tea: 10 seconds left"))
        #expect(lines.contains("tea: 1 minute past its end"))
    }

    @Test("The a form asks once, is silent while typed, reads back at Tab, echoes once at Enter, says a refusal")
    func formIsOneLine() throws {
        let lines = try plainLines(
            "key a\n" + typing("tea 25:99") + "\nkey tab\nkey enter\nkey esc\nkey a\n" + typing("tea 3m")
                + "\nkey enter\nquit\n", config: scene)
        let clockProblem = try #require(lines.first { $0.hasPrefix("you typed: ") }?.split(separator: "; ").last)
        #expect(clockProblem.hasPrefix("\"25:99\" is not a clock time"), "\(lines)")
        let question =
            "add timer: type \(TimerDefinition.lineSyntax) on one line; Enter adds it, "
            + "Tab reads back what you typed, Esc cancels"
        #expect(
            lines.prefix(6) == [
                "ticker started in default mode", question,
                "you typed: tea 25:99; \(clockProblem)", "add timer: tea 25:99: not yet: \(clockProblem)",
                "cancelled", question,
            ], "\(lines)")
        #expect(lines.dropFirst(6).prefix(2) == ["add timer: tea 3m", "tea added, started in default mode"])
    }

    @Test("5 tells the big digits' time in words, v a stopwatch's laps a line each")
    func pagesAndLapsInWords() throws {
        let lines = try plainLines(
            "key enter\nwait 2s\nkey 5\nkey 1\nkey tab\nkey tab\nkey tab\nquit\n", config: scene)
        #expect(
            lines.contains(
                "page 5: big digits of sms-default: 00:58, running; up and down choose the timer, 1 returns to the panels"
            ), "\(lines)")
        #expect(lines.contains("page 1: the panels; Tab moves between them"))
    }
}
