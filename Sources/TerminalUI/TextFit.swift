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
}
