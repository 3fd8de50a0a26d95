/// Fits text into a number of terminal cells without cutting a word in half.
///
/// ```swift
/// TextFit.truncate("no connection: refused by the server", to: 24)   // "no connection: refused…"
/// ```
public enum TextFit {
    /// `text` if it fits in `width` cells; otherwise cut after the last whole word that fits, with an
    /// ellipsis. When that would drop more than half the room (a long path, a long first word), the
    /// cut falls mid-word instead.
    public static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard CharacterWidth.of(text) > width else { return text }
        var end = text.startIndex
        var used = 0
        while end < text.endIndex, used + CharacterWidth.of(text[end]) <= width - 1 {
            used += CharacterWidth.of(text[end])
            end = text.index(after: end)
        }
        var kept = text[..<end]
        let endsAtWord = end < text.endIndex && text[end] == " "
        if !endsAtWord, let space = kept.lastIndex(of: " "), CharacterWidth.of(String(kept[..<space])) * 2 >= width {
            kept = kept[..<space]
        }
        while let last = kept.last, last == " " || last == "," || last == ":" || last == "·" { kept = kept.dropLast() }
        return kept + "…"
    }

    /// `text` in lines of at most `width` cells, broken between words; a word longer than a line
    /// is broken inside.
    ///
    /// ```swift
    /// TextFit.wrap("no connection: refused by the server", to: 16)   // ["no connection:", "refused by the", "server"]
    /// ```
    public static func wrap(_ text: String, to width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = String(word)
            while CharacterWidth.of(word) > width {
                if !line.isEmpty { lines.append(line) }
                var head = ""
                var used = 0
                for character in word {
                    guard used + CharacterWidth.of(character) <= width else { break }
                    head.append(character)
                    used += CharacterWidth.of(character)
                }
                lines.append(head)
                line = ""
                word = String(word.dropFirst(max(head.count, 1)))
            }
            let joined = line.isEmpty ? word : line + " " + word
            if CharacterWidth.of(joined) <= width {
                line = joined
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
