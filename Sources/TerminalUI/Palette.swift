/// A colour as a theme gives it: the terminal's own, one of the 256 indexed colours (0…15 the
/// ANSI colours, by name too) or a 24-bit `#rrggbb`. A terminal that cannot show it gets the nearest
/// it can (``ColorSupport/number(for:)``).
public enum TerminalColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The terminal's default foreground.
    case terminalDefault
    /// An indexed colour, 0…255.
    case indexed(Int)
    /// A 24-bit colour.
    case rgb(red: Int, green: Int, blue: Int)

    /// The ANSI colours' names, by index (0…15).
    public static let names = [
        "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "bright-black", "bright-red",
        "bright-green", "bright-yellow", "bright-blue", "bright-magenta", "bright-cyan", "bright-white",
    ]

    /// Every name a colour may be written with: ``names`` and `default`.
    public static var writtenNames: [String] { ["default"] + names }

    /// What a theme's colour accepts, as an error message says it.
    public static let accepted =
        "a colour name (default, black, red, green, yellow, blue, magenta, cyan, white, bright-black … "
        + "bright-white), a 256-colour index 0…255 or \"#rrggbb\""

    /// Reads `default`, a name of ``names``, an index `0`…`255` or `#rrggbb`; `nil` for anything else.
    public init?(_ text: String) {
        let lowered = text.lowercased()
        if lowered == "default" {
            self = .terminalDefault
        } else if let index = Self.names.firstIndex(of: lowered) {
            self = .indexed(index)
        } else if text.allSatisfy({ $0.isASCII && $0.isWholeNumber }), let index = Int(text), (0...255).contains(index)
        {
            self = .indexed(index)
        } else if text.count == 7, text.first == "#", let value = Int(text.dropFirst(), radix: 16),
            text.dropFirst().allSatisfy(\.isHexDigit)
        {
            self = .rgb(red: value >> 16, green: (value >> 8) & 0xFF, blue: value & 0xFF)
        } else {
            return nil
        }
    }

    /// The colour as a config writes it: `default`, a name, an index or `#rrggbb`.
    public var description: String {
        switch self {
        case .terminalDefault: "default"
        case .indexed(let index) where index < Self.names.count: Self.names[index]
        case .indexed(let index): String(index)
        case .rgb(let red, let green, let blue):
            "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }
    }

    /// The colour's red, green and blue, as xterm shows an indexed one by default; `nil` for the
    /// terminal's default.
    var components: (Int, Int, Int)? {
        switch self {
        case .terminalDefault: return nil
        case .rgb(let red, let green, let blue): return (red, green, blue)
        case .indexed(let index) where index < 16:
            let value = Self.ansiValues[index]
            return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)
        case .indexed(let index) where index < 232:
            let cube = index - 16
            return (Self.cubeLevels[cube / 36], Self.cubeLevels[cube / 6 % 6], Self.cubeLevels[cube % 6])
        case .indexed(let index):
            let grey = 8 + 10 * (index - 232)
            return (grey, grey, grey)
        }
    }

    /// xterm's default values of the 16 ANSI colours.
    static let ansiValues = [
        0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
        0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ]
    /// The levels of each component in the 6×6×6 colour cube (indices 16…231).
    static let cubeLevels = [0, 95, 135, 175, 215, 255]

    /// The index among `candidates` whose colour is nearest to this one's (squared distance).
    func nearest(among candidates: some Sequence<Int>) -> Int {
        guard let (red, green, blue) = components else { return -1 }
        var best = (index: 0, distance: Int.max)
        for index in candidates {
            guard let (r, g, b) = TerminalColor.indexed(index).components else { continue }
            let distance = (red - r) * (red - r) + (green - g) * (green - g) + (blue - b) * (blue - b)
            if distance < best.distance { best = (index, distance) }
        }
        return best.index
    }
}

/// The colour of each ``ColorRole``: a built-in theme (``dark``, ``light``, ``ansi``) with the
/// colours a config gave instead.
public struct Theme: Equatable, Sendable {
    /// The colour of each role.
    public var colors: [ColorRole: TerminalColor]

    /// A theme of `colors`; a role left out is the terminal's default colour.
    public init(_ colors: [ColorRole: TerminalColor]) {
        self.colors = colors
    }

    /// The colour of `role`.
    public subscript(role: ColorRole) -> TerminalColor {
        get { colors[role] ?? .terminalDefault }
        set { colors[role] = newValue }
    }

    /// For a dark background, in the 256 colours (the default).
    public static let dark = Theme([
        .normal: .terminalDefault, .dim: .indexed(245), .disabled: .indexed(240), .accent: .indexed(81),
        .good: .indexed(114), .warn: .indexed(221), .bad: .indexed(203), .selected: .indexed(75),
        .title: .indexed(230),
    ])

    /// For a light background, in the 256 colours.
    public static let light = Theme([
        .normal: .terminalDefault, .dim: .indexed(242), .disabled: .indexed(248), .accent: .indexed(25),
        .good: .indexed(28), .warn: .indexed(130), .bad: .indexed(160), .selected: .indexed(26),
        .title: .indexed(17),
    ])

    /// The 16 ANSI colours only, which the terminal's own palette decides: right on any background
    /// the terminal's colours suit.
    public static let ansi = Theme([
        .normal: .terminalDefault, .dim: .indexed(8), .disabled: .indexed(8), .accent: .indexed(6),
        .good: .indexed(2), .warn: .indexed(3), .bad: .indexed(1), .selected: .indexed(4),
        .title: .terminalDefault,
    ])

    /// The built-in themes by the name a config gives them.
    public static let builtIn: KeyValuePairs<String, Theme> = ["dark": .dark, "light": .light, "ansi": .ansi]
}

/// `--color`: whether to colour the screen.
public enum ColorChoice: String, CaseIterable, Sendable {
    /// Colour when the terminal has colours and `NO_COLOR` is unset or empty.
    case auto
    /// Colour whenever the terminal has colours, `NO_COLOR` or not.
    case always
    /// No colour: roles are told apart by bold, dim, reverse and underline.
    case never
}

/// How many colours the terminal offers, and so how a theme's colours are shown.
public enum ColorSupport: Equatable, Sendable {
    /// 24-bit colour (a terminfo entry such as `xterm-direct`): every colour as it is.
    case direct
    /// 256 indexed colours: a `#rrggbb` becomes the nearest of them.
    case palette256
    /// The 16 ANSI colours.
    case basic16
    /// The 8 ANSI colours.
    case basic8
    /// No colour: roles are shown with bold, dim, reverse and underline only.
    case monochrome

    /// Picks the support level for a terminal with `colors` colours: `never`, or a non-empty
    /// `NO_COLOR` with `auto`, means monochrome (no-color.org: an option given says more than it).
    public static func detect(colors: Int, hasColors: Bool, noColor: String?, choice: ColorChoice = .auto)
        -> ColorSupport
    {
        switch choice {
        case .never: return .monochrome
        case .auto:
            if let noColor, !noColor.isEmpty { return .monochrome }
        case .always: break
        }
        guard hasColors else { return .monochrome }
        if colors >= 1 << 24 { return .direct }
        if colors >= 256 { return .palette256 }
        if colors >= 16 { return .basic16 }
        return colors >= 8 ? .basic8 : .monochrome
    }

    /// The terminal's number for `color` (`-1`: its default), the nearest it has; `nil` in monochrome.
    ///
    /// Under direct colour, ncurses numbers a colour by its value, `0xRRGGBB`; the first 8 stay the
    /// ANSI colours, so an indexed colour past them is given by its value.
    public func number(for color: TerminalColor) -> Int? {
        if self == .monochrome { return nil }
        if color == .terminalDefault { return -1 }
        switch (self, color) {
        case (.direct, .indexed(let index)) where index < 8: return index
        case (.direct, _):
            guard let (red, green, blue) = color.components else { return -1 }
            return max(red << 16 | green << 8 | blue, 8)
        case (.palette256, .indexed(let index)): return index
        case (.palette256, _): return color.nearest(among: 16...255)
        case (.basic16, .indexed(let index)) where index < 16: return index
        case (.basic8, .indexed(let index)) where index < 16: return Self.ansi8(index)
        case (.basic16, _): return color.nearest(among: 0..<16)
        default: return Self.ansi8(color.nearest(among: 0..<16))
        }
    }

    /// One of the 16 ANSI colours on a terminal of 8: its darker twin; bright black (grey) is white,
    /// not black, so that dim text stays readable on a dark background.
    private static func ansi8(_ index: Int) -> Int {
        index == 8 ? 7 : index % 8
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

/// How a cell looks on a terminal: its foreground colour number and attributes.
public struct Appearance: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The terminal's colour number (`-1` its default), `nil` without colour.
    public var foreground: Int?
    public var bold = false
    public var dim = false
    public var reverse = false
    public var underline = false

    /// `fg 81 bold reverse`, or `plain`.
    public var description: String {
        let parts = [
            foreground.flatMap { $0 < 0 ? nil : "fg \($0 > 255 ? "#" + String($0, radix: 16) : String($0))" },
            bold ? "bold" : nil, dim ? "dim" : nil, reverse ? "reverse" : nil, underline ? "underline" : nil,
        ].compactMap { $0 }
        return parts.isEmpty ? "plain" : parts.joined(separator: " ")
    }
}

/// A theme on a terminal: the one place a ``Style`` becomes colours and attributes, for the real
/// terminal and for the golden screens alike.
///
/// ```swift
/// let palette = Palette(theme: .light, support: .palette256)
/// palette.appearance(of: Style(.good, bold: true))   // fg 28 bold
/// ```
public struct Palette: Equatable, Sendable {
    /// The colours of the roles.
    public let theme: Theme
    /// What the terminal can show.
    public let support: ColorSupport

    /// `theme` on a terminal of `support`.
    public init(theme: Theme, support: ColorSupport) {
        self.theme = theme
        self.support = support
    }

    /// The foreground colour number of `role`, the nearest the terminal has; `nil` in monochrome.
    public func foreground(for role: ColorRole) -> Int? {
        support.number(for: theme[role])
    }

    /// How a cell of `style` looks.
    public func appearance(of style: Style) -> Appearance {
        let emphasis = support.emphasis(for: style.role)
        return Appearance(
            foreground: foreground(for: style.role), bold: style.bold || emphasis.bold, dim: emphasis.dim,
            reverse: style.reverse, underline: style.underline || emphasis.underline)
    }
}
