import Foundation

/// Where TimerDeck keeps its state: `$XDG_STATE_HOME/timerdeck`, or `~/.local/state/timerdeck`.
///
/// Follows the XDG Base Directory specification: a relative or empty `XDG_STATE_HOME` is
/// ignored. Nothing is created here; ``Outbox`` and ``DirectorySink`` create what they use.
public enum StateDirectory {
    /// The `timerdeck` state directory for the given environment.
    ///
    /// - Parameter environment: the variables to read `XDG_STATE_HOME` and `HOME` from;
    ///   the process environment by default. Without a usable `HOME`, the user's home from
    ///   the password database is used.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let stateHome = environment["XDG_STATE_HOME"], stateHome.hasPrefix("/") {
            return URL(fileURLWithPath: stateHome, isDirectory: true)
                .appendingPathComponent("timerdeck", isDirectory: true)
        }
        let home: URL
        if let homePath = environment["HOME"], homePath.hasPrefix("/") {
            home = URL(fileURLWithPath: homePath, isDirectory: true)
        } else {
            home = FileManager.default.homeDirectoryForCurrentUser
        }
        return home.appendingPathComponent(".local/state/timerdeck", isDirectory: true)
    }
}
