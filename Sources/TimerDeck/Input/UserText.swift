/// How a value the user wrote is shown back in an error message: quoted, control characters
/// escaped, and cut to a short prefix so a huge value cannot flood the terminal.
enum UserText {
    /// At most this many characters of a value are shown.
    static let shownCharacters = 40

    /// `text` in double quotes, control characters escaped (`\0`, `\r`, `\u{1B}`), cut after
    /// ``shownCharacters`` characters with `…` and the full length: `"aaaa…" (52428800 characters)`.
    static func quote(_ text: some StringProtocol) -> String {
        var quoted = "\""
        var shown = 0
        for character in text {
            if shown == shownCharacters {
                return quoted + "…\" (\(text.count) characters)"
            }
            quoted += escaped(character)
            shown += 1
        }
        return quoted + "\""
    }

    private static func escaped(_ character: Character) -> String {
        var text = ""
        for scalar in character.unicodeScalars {
            switch scalar {
            case "\0": text += "\\0"
            case "\t": text += "\\t"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
