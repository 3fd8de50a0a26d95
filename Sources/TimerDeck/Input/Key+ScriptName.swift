import TerminalUI

extension Key {
    /// The names a headless script may use besides a single character.
    static let scriptNames: KeyValuePairs<String, Key> = [
        "enter": .enter, "tab": .tab, "shift-tab": .shiftTab, "esc": .escape, "backspace": .backspace,
        "delete": .delete, "up": .up, "down": .down, "left": .left, "right": .right, "pgup": .pageUp,
        "pgdn": .pageDown, "home": .home, "end": .end, "space": .character(" "),
        "wheel-up": .mouse(MouseEvent(kind: .wheelUp, row: 0, column: 0)),
        "wheel-down": .mouse(MouseEvent(kind: .wheelDown, row: 0, column: 0)),
    ]

    /// The key a script name stands for: a single character, or one of ``scriptNames`` (any case).
    static func scriptNamed(_ name: String) -> Key? {
        let lowercased = name.lowercased()
        if let entry = scriptNames.first(where: { $0.key == lowercased }) { return entry.value }
        if name.count == 1, let character = name.first { return .character(character) }
        return nil
    }
}
