/// How many terminal cells a character takes: 2 for East Asian wide and emoji, 0 for combining marks.
///
/// Computed from Unicode ranges rather than `wcwidth`, so it does not depend on the process locale
/// and the in-memory screen lays text out exactly as the terminal does.
public enum CharacterWidth {
    /// Cells taken by `character` (its first scalar decides; combining scalars add nothing).
    public static func of(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        return of(scalar)
    }

    /// Cells taken by `scalar`.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x300 { return value < 0x20 || (0x7F..<0xA0).contains(value) ? 0 : 1 }
        if isCombining(value) { return 0 }
        return isWide(value) ? 2 : 1
    }

    /// Cells taken by `text`.
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    private static func isCombining(_ value: UInt32) -> Bool {
        (0x300...0x36F).contains(value) || (0x1AB0...0x1AFF).contains(value) || (0x1DC0...0x1DFF).contains(value)
            || (0x20D0...0x20FF).contains(value) || (0xFE20...0xFE2F).contains(value) || value == 0x200D
            || (0xFE00...0xFE0F).contains(value)
    }

    private static func isWide(_ value: UInt32) -> Bool {
        (0x1100...0x115F).contains(value) || (0x2E80...0x303E).contains(value) || (0x3041...0x33FF).contains(value)
            || (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
            || (0xA000...0xA4CF).contains(value)
            || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
            || (0xFE30...0xFE4F).contains(value)
            || (0xFF00...0xFF60).contains(value) || (0xFFE0...0xFFE6).contains(value)
            || (0x1F300...0x1F64F).contains(value)
            || (0x1F900...0x1F9FF).contains(value) || (0x20000...0x3FFFD).contains(value)
    }
}
