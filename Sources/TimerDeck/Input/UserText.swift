/// How a value the user wrote is shown back in an error message: quoted, control characters
/// escaped, and cut to a short prefix so a huge value cannot flood the terminal.
package enum UserText {
    /// At most this many characters of a value are shown.
    static let shownCharacters = 40

    /// `text` in double quotes, control characters escaped (`\0`, `\r`, `\u{1B}`), cut after
    /// ``shownCharacters`` characters with `…` and the full length: `"aaaa…" (52428800 characters)`.
    package static func quote(_ text: some StringProtocol) -> String {
        quote(text, in: "\"")
    }

    /// A field's `section.key` as messages name it: in single quotes (a value is in double quotes),
    /// cut and escaped as ``quote(_:)`` does: `'log.capacity'`.
    static func field(_ key: some StringProtocol) -> String {
        quote(key, in: "'")
    }

    /// The one of `candidates` closest to `text`, a name the user may have mistyped: at most one
    /// edit (a letter added, left out, changed, or two swapped) per four characters apart, and at
    /// least one; `nil` when none is that close.
    static func closest(to text: String, among candidates: some Sequence<String>) -> String? {
        let most = max(1, text.count / 4)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(text), Array(candidate))
            if distance <= most, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The edits (insert, delete, replace, swap of neighbours) that turn `a` into `b`.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        // Rows of the table: two back, one back, and the one being filled.
        var older = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], older[j - 2] + 1)
                }
            }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count]
    }

    /// `text` between `mark`s, escaped and cut (``quote(_:)``).
    private static func quote(_ text: some StringProtocol, in mark: Character) -> String {
        var quoted = String(mark)
        var shown = 0
        for character in text {
            if shown == shownCharacters {
                return quoted + "…\(mark) (\(text.count) characters)"
            }
            quoted += escaped(character)
            shown += 1
        }
        return quoted + String(mark)
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
