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

/// How many colours the terminal offers, and so how roles are shown.
public enum ColorSupport: Equatable, Sendable {
    /// 256 colours: a tuned palette.
    case palette256
    /// The 8 ANSI colours.
    case basic8
    /// No colour: roles are shown with bold, dim, reverse and underline only.
    case monochrome

    /// Picks the support level for a terminal with `colors` colours; a non-empty `NO_COLOR` forces monochrome.
    public static func detect(colors: Int, hasColors: Bool, noColor: String?) -> ColorSupport {
        if let noColor, !noColor.isEmpty { return .monochrome }
        guard hasColors else { return .monochrome }
        if colors >= 256 { return .palette256 }
        return colors >= 8 ? .basic8 : .monochrome
    }

    /// Foreground colour number for `role` (`-1` = the terminal's default), or `nil` in monochrome.
    public func foreground(for role: ColorRole) -> Int? {
        switch self {
        case .monochrome:
            return nil
        case .basic8:
            switch role {
            case .normal, .title: return -1
            case .dim, .disabled: return 7
            case .accent: return 6
            case .good: return 2
            case .warn: return 3
            case .bad: return 1
            case .selected: return 4
            }
        case .palette256:
            switch role {
            case .normal: return -1
            case .dim: return 245
            case .disabled: return 240
            case .accent: return 81
            case .good: return 114
            case .warn: return 221
            case .bad: return 203
            case .selected: return 75
            case .title: return 230
            }
        }
    }

    /// Attributes that stand in for colour in monochrome (and sharpen a few roles otherwise).
    public func emphasis(for role: ColorRole) -> (bold: Bool, dim: Bool, underline: Bool) {
        switch (self, role) {
        case (.monochrome, .accent), (.monochrome, .title), (.monochrome, .bad): return (true, false, false)
        case (.monochrome, .dim), (.monochrome, .disabled): return (false, true, false)
        case (.monochrome, .warn), (.monochrome, .selected): return (false, false, true)
        case (_, .title): return (true, false, false)
        case (_, .disabled): return (false, true, false)
        default: return (false, false, false)
        }
    }
}
