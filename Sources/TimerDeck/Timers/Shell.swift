import AppPlatform
import Glibc
import RunLoopKit
import Synchronization

/// `/bin/sh -c SCRIPT` started as timerdeck starts its children (hooks and their watcher): in a
/// process group of its own, so stopping the group stops everything it started and the terminal's
/// `Ctrl-C` does not reach it, and with no signal blocked (timerdeck blocks its own in every thread).
enum Shell {
    /// Starts `/bin/sh -c script` with `actions`, in timerdeck's environment without the uploads'
    /// credentials (``ChildEnvironment``) and with `additions`; returns its pid, which is also its
    /// process group.
    static func start(
        _ script: String, actions: inout posix_spawn_file_actions_t, adding additions: [String: String] = [:]
    ) throws(SystemCallError) -> pid_t {
        let environment = ChildEnvironment.variables(adding: additions)
        return try starting.withLock { _ throws(SystemCallError) in
            try Spawn.start(
                "/bin/sh", arguments: ["-c", script], environment: environment, actions: &actions,
                ownProcessGroup: true, unblockingSignals: true)
        }
    }

    /// A pipe for a child's output, both ends closed on exec: a child another thread starts
    /// meanwhile (a hook, a notification, the watcher) never holds it open, so its reader sees its
    /// end when the child it is for exits. (A child gets the write end through a `dup2` action,
    /// which keeps the copy open.)
    /// - Throws: ``SystemCallError`` of `pipe`.
    static func pipe() throws(SystemCallError) -> (read: Int32, write: Int32) {
        try starting.withLock { _ throws(SystemCallError) in
            var ends: [Int32] = [-1, -1]
            guard Glibc.pipe(&ends) == 0 else { throw SystemCallError(call: "pipe", errno: errno) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }
    }

    /// Held while a child starts and while a pipe is made, so that no child starts between a
    /// pipe's creation and its close-on-exec flags.
    private static let starting = Mutex(())
}
