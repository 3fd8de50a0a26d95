import Glibc
import RunLoopKit

/// `/bin/sh -c SCRIPT` started as timerdeck starts its children (hooks and their watcher): in a
/// process group of its own, so stopping the group stops everything it started and the terminal's
/// `Ctrl-C` does not reach it, and with no signal blocked (timerdeck blocks its own in every thread).
enum Shell {
    /// Starts `/bin/sh -c script` with `actions` and `environment` (`NAME=value` strings, or `nil`
    /// for timerdeck's own); returns its pid, which is also its process group.
    static func start(
        _ script: String, actions: inout posix_spawn_file_actions_t, environment: [String]? = nil
    ) throws(SystemCallError) -> pid_t {
        try Spawn.start(
            "/bin/sh", arguments: ["-c", script], environment: environment, actions: &actions,
            ownProcessGroup: true, unblockingSignals: true)
    }
}
