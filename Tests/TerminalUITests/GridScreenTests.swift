import Testing

@testable import TerminalUI

@Suite("GridScreen and Canvas")
struct GridScreenTests {
    @Test("Text lands where it is put and snapshots trim trailing spaces")
    func textAndSnapshot() {
        let screen = GridScreen(size: Size(width: 10, height: 3))
        screen.canvas.put("hello", row: 1, column: 2)
        #expect(screen.snapshot() == "\n  hello\n")
    }

    @Test("A region clips what is drawn into it")
    func regionClips() {
        let screen = GridScreen(size: Size(width: 10, height: 3))
        let region = screen.canvas.region(Rect(row: 1, column: 3, width: 4, height: 1))
        region.put("abcdefgh", row: 0, column: 0)
        region.put("zz", row: 1, column: 0)
        #expect(screen.snapshot() == "\n   abcd\n")
    }

    @Test("Wide characters take two cells; one that would be cut in half becomes a space")
    func wideCharacters() {
        let screen = GridScreen(size: Size(width: 6, height: 2))
        let end = screen.canvas.put("定时器", row: 0, column: 0)
        #expect(end == 6)
        #expect(screen.cell(row: 0, column: 1).isContinuation)
        screen.canvas.put("a定时", row: 1, column: 0, maxWidth: 4)
        #expect(screen.snapshot() == "定时器\na定")
        #expect(CharacterWidth.of("e\u{301}") == 1)
        #expect(CharacterWidth.of("⏸") == 1 && CharacterWidth.of("界") == 2)
    }

    @Test("Boxes draw borders with the title in the top edge")
    func boxWithTitle() {
        let screen = GridScreen(size: Size(width: 12, height: 3))
        screen.canvas.box(title: "Log")
        #expect(screen.snapshot() == "┌─ Log ────┐\n│          │\n└──────────┘")
    }

    @Test("A flush with nothing changed does nothing; changes to identical cells are not changes")
    func flushCountsOnlyChanges() {
        let screen = GridScreen(size: Size(width: 5, height: 1))
        screen.flush()
        #expect(screen.updateCount == 1, "the first flush paints the blank screen")
        screen.flush()
        #expect(screen.updateCount == 1)
        screen.canvas.put("a", row: 0, column: 0)
        screen.flush()
        screen.canvas.put("a", row: 0, column: 0)
        screen.flush()
        #expect(screen.updateCount == 2)
    }

    @Test("The minimum-size message names the size needed")
    func minimumSizeMessage() {
        let screen = GridScreen(size: Size(width: 50, height: 5))
        MinimumSize.draw(on: screen, minimum: Size(width: 80, height: 24))
        #expect(screen.snapshot().contains("enlarge the terminal to at least 80×24"))
        #expect(screen.snapshot().contains("(now 50×5)"))
    }
}

@Suite("Styles and colour fallbacks")
struct StyleTests {
    @Test("256 colours, 8 colours, monochrome, and NO_COLOR")
    func colourSupportDetection() {
        #expect(ColorSupport.detect(colors: 256, hasColors: true, noColor: nil) == .palette256)
        #expect(ColorSupport.detect(colors: 8, hasColors: true, noColor: nil) == .basic8)
        #expect(ColorSupport.detect(colors: 2, hasColors: true, noColor: nil) == .monochrome)
        #expect(ColorSupport.detect(colors: 256, hasColors: false, noColor: nil) == .monochrome)
        #expect(ColorSupport.detect(colors: 256, hasColors: true, noColor: "1") == .monochrome)
        #expect(
            ColorSupport.detect(colors: 256, hasColors: true, noColor: "") == .palette256,
            "an empty NO_COLOR does not count")
    }

    @Test("Monochrome shows roles with attributes only")
    func monochromeUsesAttributes() {
        let mono = Palette(theme: .dark, support: .monochrome)
        #expect(mono.foreground(for: .bad) == nil)
        #expect(mono.appearance(of: Style(.bad)) == Appearance(foreground: nil, bold: true))
        #expect(mono.appearance(of: Style(.dim)).dim)
        #expect(mono.appearance(of: Style(.selected, reverse: true)) == Appearance(reverse: true, underline: true))
        #expect(Palette(theme: .ansi, support: .basic8).foreground(for: .good) == 2)
        #expect(Palette(theme: .dark, support: .palette256).foreground(for: .normal) == -1)
    }

    @Test("--color never is monochrome; always colours in spite of NO_COLOR; 16 colours and direct colour")
    func colourChoice() {
        #expect(ColorSupport.detect(colors: 256, hasColors: true, noColor: nil, choice: .never) == .monochrome)
        #expect(ColorSupport.detect(colors: 256, hasColors: true, noColor: "1", choice: .always) == .palette256)
        #expect(ColorSupport.detect(colors: 256, hasColors: false, noColor: nil, choice: .always) == .monochrome)
        #expect(ColorSupport.detect(colors: 16, hasColors: true, noColor: nil) == .basic16)
        #expect(ColorSupport.detect(colors: 1 << 24, hasColors: true, noColor: nil) == .direct)
    }

    @Test("Colours are read by name, index and #rrggbb, and written back the same way")
    func colourNames() {
        #expect(TerminalColor("bright-red") == .indexed(9))
        #expect(TerminalColor("Green") == .indexed(2))
        #expect(TerminalColor("208") == .indexed(208))
        #expect(TerminalColor("#5fd7ff") == .rgb(red: 0x5F, green: 0xD7, blue: 0xFF))
        #expect(TerminalColor("default") == .terminalDefault)
        for bad in ["256", "-1", "#5fd7f", "#5fd7fg", "gren", "", "+12", "#+fffff"] {
            #expect(TerminalColor(bad) == nil, "\(bad)")
        }
        for text in ["bright-red", "208", "#05d7ff", "default"] {
            #expect(TerminalColor(text)?.description == text)
        }
    }

    @Test("A colour the terminal lacks becomes the nearest it has: 24-bit → 256 → 16 → 8")
    func colourDegrades() throws {
        let sky = try #require(TerminalColor("#5fd7ff"))
        #expect(ColorSupport.direct.number(for: sky) == 0x5FD7FF)
        #expect(ColorSupport.palette256.number(for: sky) == 81, "the cube's own colour")
        #expect(ColorSupport.palette256.number(for: .rgb(red: 0x80, green: 0x80, blue: 0x80)) == 244, "a grey")
        #expect(ColorSupport.basic16.number(for: sky) == 14)
        #expect(ColorSupport.basic8.number(for: sky) == 6)
        #expect(ColorSupport.basic16.number(for: .indexed(196)) == 9)
        #expect(ColorSupport.basic8.number(for: .indexed(8)) == 7, "grey stays readable, not black")
        #expect(ColorSupport.direct.number(for: .indexed(3)) == 3)
        #expect(ColorSupport.direct.number(for: .indexed(81)) == 0x5FD7FF)
        #expect(ColorSupport.monochrome.number(for: sky) == nil)
    }
}

@Suite("Keys")
struct KeyTests {
    @Test(
        "Characters decode to keys",
        arguments: [
            (UInt32(10), Key.enter), (13, .enter), (9, .tab), (27, .escape), (127, .backspace),
            (UInt32(Character("q").asciiValue!), .character("q")), (0x5B9A, .character("定")),
        ])
    func characters(value: UInt32, key: Key) {
        #expect(KeyDecoder.decode(value, isKeyCode: false) == key)
    }

    @Test("Key codes decode to keys")
    func keyCodes() {
        #expect(KeyDecoder.decodeKeyCode(0o403) == .up)
        #expect(KeyDecoder.decodeKeyCode(0o402) == .down)
        #expect(KeyDecoder.decodeKeyCode(0o523) == .pageUp)
        #expect(KeyDecoder.decodeKeyCode(0o522) == .pageDown)
        #expect(KeyDecoder.decodeKeyCode(0o541) == .shiftTab)
        #expect(KeyDecoder.decodeKeyCode(0o632) == .resize)
        #expect(KeyDecoder.decodeKeyCode(0o411) == .function(1))
        guard case .unknown(let name) = KeyDecoder.decodeKeyCode(0o777) else {
            Issue.record("0o777 is not an unknown key")
            return
        }
        #expect(!name.isEmpty && !name.hasPrefix("key"), "\(name)")
        #expect(KeyDecoder.decode(1, isKeyCode: false) == .unknown("Ctrl-A"))
    }

    @Test(
        "Escape sequences terminfo does not list become one key each: the key they stand for, or one unknown key",
        arguments: [
            ("\u{1B}[4~", [Key.end]), ("\u{1B}[1~", [.home]), ("\u{1B}OF", [.end]), ("\u{1B}[A", [.up]),
            ("\u{1B}[5~", [.pageUp]), ("\u{1B}[15~", [.function(5)]), ("\u{1B}OP", [.function(1)]),
            ("\u{1B}[99~", [.unknown("ESC [99~")]), ("\u{1B}[1;5C", [.unknown("ESC [1;5C")]),
            ("\u{1B}q", [.unknown("alt-q")]), ("\u{1B} ", [.unknown("alt-space")]),
            ("a\u{1B}[4~4", [.character("a"), .end, .character("4")]),
            ("\u{1B}", [.escape]), ("\u{1B}\u{1B}", [.escape, .escape]),
            ("[4~", [.character("["), .character("4"), .character("~")]),
            // A terminal's answer to a query: ended by ST or BEL, one reply, never keys.
            ("\u{1B}]99;i=q:p=?;p=title\u{1B}\\q", [.terminalReply("99;i=q:p=?;p=title"), .character("q")]),
            ("\u{1B}]99;x\u{07}", [.terminalReply("99;x")]),
            // Unended, it is what it was before: Alt-] and the characters.
            ("\u{1B}]9", [.unknown("alt-]"), .character("9")]),
        ])
    func sequences(typed: String, keys: [Key]) {
        let read = typed.unicodeScalars.map { KeyDecoder.decode($0.value, isKeyCode: false) }
        #expect(KeyDecoder.joiningSequences(read) == keys)
    }

    @Test("An Escape before a key code stays Escape")
    func escapeBeforeKeyCode() {
        #expect(KeyDecoder.joiningSequences([.escape, .up, .character("q")]) == [.escape, .up, .character("q")])
    }
}
