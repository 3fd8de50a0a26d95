import Glibc

/// Where TimerDeck keeps its state: `$XDG_STATE_HOME/timerdeck`, or `~/.local/state/timerdeck`.
///
/// Follows the XDG Base Directory specification: a relative or empty `XDG_STATE_HOME` is ignored,
/// and so is a relative `HOME`. Nothing is created here.
///
/// ```swift
/// StateDirectoryPath.path(environment: { ["HOME": "/home/me"][$0] }, homeWhenUnset: { nil })
/// // "/home/me/.local/state/timerdeck"
/// ```
public enum StateDirectoryPath {
    /// The `timerdeck` state directory, with the variables `environment` gives (the process's by
    /// default), under the home `homeWhenUnset` gives when `HOME` is not a usable one (the user's
    /// home from the password database, which a caller looks up); `nil` when it gives none.
    public static func path(
        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } },
        homeWhenUnset: () -> String?
    ) -> String? {
        if let stateHome = environment("XDG_STATE_HOME"), stateHome.hasPrefix("/") {
            return joined(stateHome, "timerdeck")
        }
        guard let home = environment("HOME").flatMap({ $0.hasPrefix("/") ? $0 : nil }) ?? homeWhenUnset() else {
            return nil
        }
        return joined(home, ".local/state/timerdeck")
    }

    /// `directory/name`, without a doubled slash.
    private static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
