/// The focus view's built-in fonts: digits, `:`, `-` and `+` drawn with block characters, in a large
/// font of 5 rows (scaled up whole to fill a large terminal) and a small one of 3 rows.
///
/// ```swift
/// BigDigitFont.large.lines(of: "01:30", scale: 1)   // 5 lines, 27 cells wide
/// ```
struct BigDigitFont: Sendable {
    /// Each character's rows, all of one height; every row of a glyph is as wide as the others.
    let glyphs: [Character: [String]]
    /// Rows of a glyph.
    let height: Int

    /// 5 rows of full blocks.
    static let large = BigDigitFont(
        glyphs: [
            "0": ["█████", "█   █", "█   █", "█   █", "█████"],
            "1": ["   █ ", "  ██ ", "   █ ", "   █ ", "  ███"],
            "2": ["█████", "    █", "█████", "█    ", "█████"],
            "3": ["█████", "    █", " ████", "    █", "█████"],
            "4": ["█   █", "█   █", "█████", "    █", "    █"],
            "5": ["█████", "█    ", "█████", "    █", "█████"],
            "6": ["█████", "█    ", "█████", "█   █", "█████"],
            "7": ["█████", "    █", "   █ ", "  █  ", "  █  "],
            "8": ["█████", "█   █", "█████", "█   █", "█████"],
            "9": ["█████", "█   █", "█████", "    █", "█████"],
            ":": [" ", "█", " ", "█", " "],
            "-": ["     ", "     ", "█████", "     ", "     "],
            "+": ["     ", "  █  ", "█████", "  █  ", "     "],
        ], height: 5)

    /// 3 rows of half blocks.
    static let small = BigDigitFont(
        glyphs: [
            "0": ["█▀█", "█ █", "▀▀▀"],
            "1": ["▀█ ", " █ ", "▀▀▀"],
            "2": ["▀▀█", "█▀▀", "▀▀▀"],
            "3": ["▀▀█", " ▀█", "▀▀▀"],
            "4": ["█ █", "▀▀█", "  ▀"],
            "5": ["█▀▀", "▀▀█", "▀▀▀"],
            "6": ["█▀▀", "█▀█", "▀▀▀"],
            "7": ["▀▀█", "  █", "  ▀"],
            "8": ["█▀█", "█▀█", "▀▀▀"],
            "9": ["█▀█", "▀▀█", "▀▀▀"],
            ":": ["▄", "▄", " "],
            "-": ["   ", "▀▀▀", "   "],
            "+": [" ▄ ", "▀█▀", "   "],
        ], height: 3)

    /// The cells `text` takes at `scale`: its glyphs and a column between each two.
    func width(of text: String, scale: Int = 1) -> Int {
        let glyphWidths = text.map { glyphs[$0]?.first?.count ?? 0 }
        return glyphWidths.reduce(0, +) * scale + max(text.count - 1, 0)
    }

    /// `text` drawn in `height × scale` lines, each glyph's cells `scale` times as wide and high;
    /// a character the font lacks is left out.
    func lines(of text: String, scale: Int = 1) -> [String] {
        (0..<height * scale).map { line in
            text.compactMap { glyphs[$0] }.map { glyph in
                String(glyph[line / scale].flatMap { String(repeating: $0, count: scale) })
            }.joined(separator: " ")
        }
    }
}
