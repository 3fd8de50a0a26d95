internal import CNcurses

/// Turns what `get_wch` returns into ``Key``s, without needing a terminal (so it is testable).
public enum KeyDecoder {
    /// Decodes a character read by `get_wch` (`isKeyCode == false`) or a key code (`KEY_CODE_YES`).
    public static func decode(_ value: UInt32, isKeyCode: Bool) -> Key {
        isKeyCode ? decodeKeyCode(Int32(bitPattern: value)) : decodeCharacter(value)
    }

    /// Decodes bytes read from a terminal in raw mode, without ncurses (the plain mode): UTF-8
    /// characters, and escape sequences joined as ``joiningSequences(_:)`` joins them. A character
    /// cut at the end of `bytes` is dropped.
    ///
    /// ```swift
    /// KeyDecoder.decode(bytes: Array("q\u{1B}[5~".utf8))   // [.character("q"), .pageUp]
    /// ```
    public static func decode(bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): keys.append(decodeCharacter(scalar.value))
            case .emptyInput: break loop
            case .error: continue
            }
        }
        return joiningSequences(keys)
    }

    static func decodeCharacter(_ value: UInt32) -> Key {
        switch value {
        case 10, 13: return .enter
        case 9: return .tab
        case 27: return .escape
        case 8, 127: return .backspace
        default:
            guard value >= 32, let scalar = Unicode.Scalar(value) else { return .unknown(controlName(value)) }
            return .character(Character(scalar))
        }
    }

    static func decodeKeyCode(_ code: Int32) -> Key {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_BTAB: return .shiftTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_RESIZE: return .resize
        default:
            let first = cn_key_f0()
            if code > first && code <= first + 63 { return .function(Int(code - first)) }
            return .unknown(keyname(code).map { String(cString: $0) } ?? "code \(code)")
        }
    }

    /// A control character as the terminal's users write it: `Ctrl-A`, or its code.
    static func controlName(_ value: UInt32) -> String {
        value >= 1 && value <= 26 ? "Ctrl-\(Character(Unicode.Scalar(UInt8(value + 64))))" : "control code \(value)"
    }

    /// Joins the escape sequences ncurses hands over one character at a time — those its terminfo
    /// entry does not list, such as `ESC [4~` (End on PuTTY, rxvt and screen) under `TERM=xterm` —
    /// into one key each: the keys they stand for, or one ``Key/unknown(_:)`` key naming the whole
    /// sequence. An OSC string (`ESC ]` … BEL or `ESC \`) is the terminal's answer to a query, one
    /// ``Key/terminalReply(_:)``. Escape then a character is Alt with it (`alt-q`), which nothing
    /// means. An Escape alone stays one.
    ///
    /// ncurses waits `ESCDELAY` after an Escape for the rest of a sequence and gives back what it
    /// could not match, so a whole sequence is in one read.
    ///
    /// ```swift
    /// KeyDecoder.joiningSequences([.escape, .character("["), .character("4"), .character("~")])   // [.end]
    /// KeyDecoder.joiningSequences([.escape, .character("q")])   // [.unknown("alt-q")]
    /// ```
    public static func joiningSequences(_ keys: [Key]) -> [Key] {
        var joined: [Key] = []
        var index = keys.startIndex
        while index < keys.endIndex {
            guard keys[index] == .escape, index + 1 < keys.endIndex, case .character(let next) = keys[index + 1] else {
                joined.append(keys[index])
                index += 1
                continue
            }
            // OSC, a terminal's answer: its body up to BEL or ST (`ESC \`), in this read.
            if next == "]", let (body, end) = oscString(in: keys, from: index + 2) {
                joined.append(.terminalReply(body))
                index = end
                continue
            }
            switch next {
            case "[", "O":
                // CSI: parameters and intermediates, then a final byte in @…~; SS3: one final byte.
                var end = index + 2
                var body = ""
                while end < keys.endIndex, case .character(let character) = keys[end],
                    let value = character.asciiValue, value >= 0x20, value <= 0x7E
                {
                    body.append(character)
                    end += 1
                    if next == "O" || value >= 0x40 { break }
                }
                joined.append(sequence(introducer: next, body: body))
                index = end
            default:
                joined.append(.unknown("alt-\(Key.character(next))"))
                index += 2
            }
        }
        return joined
    }

    /// The body of an OSC string starting at `start` (after `ESC ]`), and the index after its
    /// terminator, BEL or `ESC \`; `nil` when no terminator follows.
    private static func oscString(in keys: [Key], from start: Int) -> (body: String, end: Int)? {
        var body = ""
        var index = start
        while index < keys.endIndex {
            switch keys[index] {
            case .unknown(controlName(7)): return (body, index + 1)
            case .escape:
                guard index + 1 < keys.endIndex, keys[index + 1] == .character("\\") else { return nil }
                return (body, index + 2)
            case .character(let character): body.append(character)
            default: return nil
            }
            index += 1
        }
        return nil
    }

    /// The key `ESC` `introducer` `body` stands for.
    static func sequence(introducer: Character, body: String) -> Key {
        let known: [String: Key] =
            introducer == "O"
            ? ["A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end, "M": .enter]
                .merging(["P": .function(1), "Q": .function(2), "R": .function(3), "S": .function(4)]) { $1 }
            : [
                "A": .up, "B": .down, "C": .right, "D": .left, "H": .home, "F": .end, "Z": .shiftTab,
                "1~": .home, "3~": .delete, "4~": .end, "5~": .pageUp, "6~": .pageDown, "7~": .home,
                "8~": .end, "11~": .function(1), "12~": .function(2), "13~": .function(3), "14~": .function(4),
                "15~": .function(5), "17~": .function(6), "18~": .function(7), "19~": .function(8),
                "20~": .function(9), "21~": .function(10), "23~": .function(11), "24~": .function(12),
            ]
        return known[body] ?? .unknown("ESC \(introducer)\(body)")
    }

    /// Decodes an ncurses mouse button state into an event kind.
    static func mouseKind(_ state: UInt) -> MouseEvent.Kind {
        let buttons = mmask_t(state)
        if buttons & cn_button4_pressed() != 0 { return .wheelUp }
        if buttons & cn_button5_pressed() != 0 { return .wheelDown }
        if buttons & cn_button1_pressed() != 0 { return .press }
        if buttons & cn_button1_released() != 0 { return .release }
        return .other
    }
}
