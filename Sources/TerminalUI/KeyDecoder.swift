internal import CNcurses

/// Turns what `get_wch` returns into ``Key``s, without needing a terminal (so it is testable).
public enum KeyDecoder {
    /// Decodes a character read by `get_wch` (`isKeyCode == false`) or a key code (`KEY_CODE_YES`).
    public static func decode(_ value: UInt32, isKeyCode: Bool) -> Key {
        isKeyCode ? decodeKeyCode(Int32(bitPattern: value)) : decodeCharacter(value)
    }

    static func decodeCharacter(_ value: UInt32) -> Key {
        switch value {
        case 10, 13: return .enter
        case 9: return .tab
        case 27: return .escape
        case 8, 127: return .backspace
        default:
            guard value >= 32, let scalar = Unicode.Scalar(value) else { return .unknown(Int32(bitPattern: value)) }
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
            return .unknown(code)
        }
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
