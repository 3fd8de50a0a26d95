import AppPlatform
import Foundation

/// Where TimerDeck keeps its state: `$XDG_STATE_HOME/timerdeck`, or `~/.local/state/timerdeck`
/// (``StateDirectoryPath``, the rule), as a URL.
///
/// Nothing is created here; ``Outbox`` and ``DirectorySink`` create what they use.
public enum StateDirectory {
    /// The `timerdeck` state directory for the given environment.
    ///
    /// - Parameter environment: the variables to read `XDG_STATE_HOME` and `HOME` from;
    ///   the process environment by default. Without a usable `HOME`, the user's home from
    ///   the password database is used.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let path = StateDirectoryPath.path(
            environment: { environment[$0] }, homeWhenUnset: { FileManager.default.homeDirectoryForCurrentUser.path })
        return URL(fileURLWithPath: path, isDirectory: true)
    }
}
