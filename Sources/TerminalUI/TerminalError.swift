/// Why the terminal could not be used; each message says how to fix it.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal.
    case notATerminal
    /// `TERM` names no terminal known to terminfo (or is unset).
    case unknownTerminal(String?)
    /// `TERM` names a terminal that lacks what the screen needs: moving the cursor (`dumb`), reverse
    /// video (`vt52`); `lacking` says which, as in "cannot move the cursor".
    case unsupportedTerminal(String, lacking: String)
    /// ncurses refused to start for another reason.
    case cannotStart(String)

    public var description: String {
        switch self {
        case .notATerminal:
            "timerdeck needs a terminal: standard input and output must both be a terminal. "
                + "To run without one, use `timerdeck --headless --script FILE`."
        case .unknownTerminal(let term):
            "the terminal type TERM=\(term ?? "(unset)") is not known to terminfo. "
                + "Set TERM to a known type (e.g. `TERM=xterm-256color timerdeck`) or install its terminfo entry."
        case .unsupportedTerminal(let term, let lacking):
            "the terminal type TERM=\(term) cannot \(lacking), so it cannot show the dashboard. "
                + "Set TERM to a full-screen terminal type (e.g. `TERM=xterm-256color timerdeck`), "
                + "or run without one: `timerdeck --headless --script FILE`."
        case .cannotStart(let reason):
            "cannot start the terminal: \(reason)"
        }
    }
}
