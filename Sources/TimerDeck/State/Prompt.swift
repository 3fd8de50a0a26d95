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

    /// The status bar's line: the question and the text so far.
    var line: String {
        switch purpose {
        case .write(let export): "write \(export.what) to (Enter writes, Esc cancels): \(text)▏"
        case .addTimer: text.isEmpty ? "add timer: \(TimerDefinition.lineSyntax)  (Esc cancels)" : "add timer: \(text)▏"
        case .overwrite(_, let path, false): "\(UserText.quote(path)) exists: Enter overwrites it, Esc keeps it"
        case .overwrite(_, let path, true):
            "\(UserText.quote(path)) is the running config: Enter overwrites it (its comments and every section "
                + "but [[timers]] are lost), Esc keeps it"
        }
    }
}
