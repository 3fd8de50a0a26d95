/// The keys as the documentation tells them, with the default bindings: `timerdeck --help` (and so
/// the manual page) and the key table of `Docs/Manual.md` are made from ``Keymap/lines``, the one
/// table the help overlay is written from too.
///
/// ```swift
/// KeyGuide.entries.map(\.overlayLine)     // the help overlay's key lines, default keys
/// KeyGuide.markdownTable                  // the key table of Docs/Manual.md
/// ```
enum KeyGuide {
    /// One line of the keymap with the default keys.
    struct Entry: Sendable {
        /// The keys, as the overlay writes them (`Tab / Shift-Tab`, `space .`).
        var keys: String
        /// The `[keys]` actions among them, which a config may move to other keys.
        var actions: [KeyAction]
        /// What they do, short enough for the overlay at 80×24.
        var summary: String
        /// What they do, in full, for the manual.
        var detail: String
        /// The overlay's line: the keys in a column of ``keyColumn`` cells, then the summary.
        var overlayLine: String
    }

    /// The width of the keys' column in the overlay and in `--help`.
    static let keyColumn = Keymap.keyColumn

    /// Every key, in the overlay's order, with the default keys.
    static let entries: [Entry] = Keymap.lines.map { line in
        let defaults = KeyBindings()
        let keys = line.keys.map { key in
            switch key {
            case .action(let action): KeyAction.name(of: defaults.key(of: action))
            case .fixed(let text): text
            }
        }
        return Entry(
            keys: keys.joined(separator: " "), actions: line.actions, summary: line.text, detail: line.detail,
            overlayLine: line.written(with: defaults))
    }

    /// The key table of `Docs/Manual.md`: keys, what they do, and the `[keys]` actions among them.
    static var markdownTable: String {
        let rows = entries.map { entry in
            let actions = entry.actions.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            let detail = entry.detail.replacing("|", with: "\\|")
            return "| `\(entry.keys)` | \(detail) | \(actions) |"
        }
        return (["| keys | do | `[keys]` action |", "|---|---|---|"] + rows).joined(separator: "\n")
    }

    /// The `[keys]` actions with their default keys: `start-stop (s), pause (p), …`.
    static var actionList: String {
        KeyAction.allCases.map { "\($0.rawValue) (\(KeyAction.name(of: $0.defaultKey)))" }
            .joined(separator: ", ")
    }
}
