/// A line of text the user is typing in the status bar, and what it is for.
struct Prompt: Equatable, Sendable {
    /// What Enter does with the text.
    enum Purpose: Equatable, Sendable {
        /// Writes the timers (`W`) or a stopwatch's laps (`E`) to the file the text names.
        case write(Export)
        /// Adds the timer the text defines (`a`).
        case addTimer
        /// Overwrites the existing file `path` (the second step of `W` or `E`); the running config
        /// loses its comments and other sections.
        case overwrite(Export, path: String, isRunningConfig: Bool)
    }

    /// The longest text accepted.
    static let maxLength = 200

    var purpose: Purpose
    var text = ""

    /// The mark after the text typed so far, where the next character goes.
    static let cursor = "▏"

    /// The status bar's line: the question and the text so far, with the ``cursor``.
    var line: String { line(cursor: Self.cursor) }

    /// The question and the text so far, `cursor` after the text; the plain mode gives `""`.
    func line(cursor: String) -> String {
        switch purpose {
        case .write(let export): "write \(export.what) to (Enter writes, Esc cancels): \(text)\(cursor)"
        case .addTimer:
            text.isEmpty ? "add timer: \(TimerDefinition.lineSyntax)  (Esc cancels)" : "add timer: \(text)\(cursor)"
        case .overwrite(_, let path, false): "\(UserText.quote(path)) exists: Enter overwrites it, Esc keeps it"
        case .overwrite(_, let path, true):
            "\(UserText.quote(path)) is the running config: Enter overwrites it (its comments and every section "
                + "but [[timers]] are lost), Esc keeps it"
        }
    }

    /// The question as the plain mode asks it, once, when the prompt opens: what to type on the
    /// one line and which keys act on it.
    var plainQuestion: String {
        let keys = "Enter \(purpose == .addTimer ? "adds it" : "writes"), Tab reads back what you typed, Esc cancels"
        switch purpose {
        case .write(let export): return "write \(export.what) to: type a file name; \(keys)"
        case .addTimer: return "add timer: type \(TimerDefinition.lineSyntax) on one line; \(keys)"
        case .overwrite: return line(cursor: "")
        }
    }

    /// What was typed, as the plain mode echoes it once at Enter: `add timer: tea 3m overtime`.
    var plainEcho: String {
        switch purpose {
        case .write(let export): "write \(export.what) to: \(text)"
        case .addTimer: "add timer: \(text)"
        case .overwrite: line(cursor: "")
        }
    }
}
