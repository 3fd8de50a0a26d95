/// What a piece of text means; the screen turns it into colours the terminal can show.
public enum ColorRole: Int, CaseIterable, Sendable {
    case normal, dim, accent, good, warn, bad, selected, disabled, title
}

/// How text looks: a colour role plus attributes. A value type, compared cell by cell.
public struct Style: Equatable, Hashable, Sendable {
    public var role: ColorRole
    public var bold: Bool
    public var reverse: Bool
    public var underline: Bool

    /// Creates a style.
    public init(_ role: ColorRole = .normal, bold: Bool = false, reverse: Bool = false, underline: Bool = false) {
        self.role = role
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
    }

    /// Plain text.
    public static let normal = Style()
}
