import TerminalUI

extension Config {
    /// The `[theme]` section's fields: a built-in theme and the colours of roles given instead.
    static let themeFields: [ConfigField<Config>] =
        [.choice("theme.name", \.baseTheme, Theme.builtIn)]
        + ColorRole.allCases.map { role in .color("theme.\(role)", \.themeColors[role]) }

    /// The theme the screen uses: ``baseTheme`` with the colours of ``themeColors`` over it.
    package var theme: Theme {
        var theme = baseTheme
        for (role, color) in themeColors { theme[role] = color }
        return theme
    }

    /// Checks a command-line `--color` value.
    package static func validateColor(_ text: String) throws(ConfigError) -> ColorChoice {
        try ConfigError.choice(text, for: "option --color: ")
    }
}
