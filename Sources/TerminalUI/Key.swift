/// A key press or terminal event, decoded from ncurses input.
public enum Key: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A printable character (any Unicode character, including space).
    case character(Character)
    case enter, tab, shiftTab, escape, backspace, delete
    case up, down, left, right, pageUp, pageDown, home, end
    /// F1 … F12 (and beyond).
    case function(Int)
    /// The terminal changed size.
    case resize
    /// A mouse event (wheel or button).
    case mouse(MouseEvent)
    /// A key or escape sequence this decoder does not know, by what the terminal sent: `ESC [99~`,
    /// `alt-q`, or ncurses' name of a key code (`kLFT5`).
    case unknown(String)
    /// The terminal's answer to a query, not a key the user pressed: an OSC string's body
    /// (`99;i=…:p=?;…` for `ESC ] 99;i=…:p=?;… ESC \`).
    case terminalReply(String)

    public var description: String {
        switch self {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .enter: "enter"
        case .tab: "tab"
        case .shiftTab: "shift-tab"
        case .escape: "esc"
        case .backspace: "backspace"
        case .delete: "delete"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .home: "home"
        case .end: "end"
        case .function(let number): "F\(number)"
        case .resize: "resize"
        case .mouse(let event): "mouse \(event.kind) at \(event.row),\(event.column)"
        case .unknown(let name): name
        case .terminalReply(let body): "terminal reply \(body)"
        }
    }

    /// The key as a message names it: `key q`, `key pgup`, `an unrecognised key (ESC [99~)`.
    public var named: String {
        if case .unknown(let name) = self { return "an unrecognised key (\(name))" }
        return "key \(description)"
    }
}

/// A mouse event at a screen position.
public struct MouseEvent: Equatable, Hashable, Sendable {
    /// What happened.
    public enum Kind: Equatable, Hashable, Sendable {
        case wheelUp, wheelDown, press, release, other
    }

    public var kind: Kind
    public var row: Int
    public var column: Int

    /// Creates an event.
    public init(kind: Kind, row: Int, column: Int) {
        self.kind = kind
        self.row = row
        self.column = column
    }
}
