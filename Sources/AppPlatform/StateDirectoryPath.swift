import Glibc

/// Where TimerDeck keeps its state: `$XDG_STATE_HOME/timerdeck`, or `~/.local/state/timerdeck`.
///
/// Follows the XDG Base Directory specification: a relative or empty `XDG_STATE_HOME` is ignored,
/// and so is a relative `HOME`. Nothing is created here.
///
/// ```swift
/// StateDirectoryPath.pathWithoutLookup(environment: { ["HOME": "/home/me"][$0] })
/// // "/home/me/.local/state/timerdeck"
/// ```
public enum StateDirectoryPath {
    /// The `timerdeck` state directory, with the variables `environment` gives (the process's by
    /// default), under the home `homeWhenUnset` gives when `HOME` is not a usable one (the user's
    /// home from the password database, which a caller looks up).
    public static func path(
        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } },
        homeWhenUnset: () -> String
    ) -> String {
        underStateHome(environment) ?? joined(usableHome(environment) ?? homeWhenUnset(), home)
    }

    /// The `timerdeck` state directory as ``path(environment:homeWhenUnset:)`` finds it, or `nil`
    /// when it would need the password database: neither `XDG_STATE_HOME` nor `HOME` is usable.
    public static func pathWithoutLookup(
        environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }
    ) -> String? {
        underStateHome(environment) ?? usableHome(environment).map { joined($0, home) }
    }

    /// The directory under the home.
    private static let home = ".local/state/timerdeck"

    /// `$XDG_STATE_HOME/timerdeck`, when `XDG_STATE_HOME` is absolute.
    private static func underStateHome(_ environment: (String) -> String?) -> String? {
        environment("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? joined($0, "timerdeck") : nil }
    }

    /// `HOME`, when it is absolute.
    private static func usableHome(_ environment: (String) -> String?) -> String? {
        environment("HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// `directory/name`, without a doubled slash.
    private static func joined(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
