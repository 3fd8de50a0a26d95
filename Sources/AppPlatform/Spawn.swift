import Glibc
import RunLoopKit

/// The package's child processes: started with `posix_spawn` (no `fork` of a threaded process),
/// reaped with `waitpid` on their own pid, so nothing depends on a `SIGCHLD` handler.
public enum Spawn {
    /// How a child ended.
    public enum Exit: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// This signal ended it.
        case killed(Int32)
    }

    /// Starts `executable` with `arguments` (after the name it is given as `argv[0]`) and returns
    /// its pid.
    ///
    /// - Parameters:
    ///   - environment: `NAME=value` strings, or `nil` for this process's environment.
    ///   - actions: the descriptors the child starts with (`posix_spawn_file_actions_t`), if set up.
    ///   - ownProcessGroup: starts the child in a process group of its own, which it leads, so the
    ///     terminal's `Ctrl-C` does not reach it and stopping the group stops all it started.
    ///   - unblockingSignals: starts it with no signal blocked (the caller may block its own).
    /// - Throws: ``SystemCallError`` of `posix_spawn`.
    public static func start(
        _ executable: String, arguments: [String], environment: [String]? = nil,
        actions: UnsafePointer<posix_spawn_file_actions_t>? = nil, ownProcessGroup: Bool = false,
        unblockingSignals: Bool = false
    ) throws(SystemCallError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = 0
        if unblockingSignals {
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            flags |= POSIX_SPAWN_SETSIGMASK
        }
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { for variable in envp ?? [] { free(variable) } }
        var pid: pid_t = 0
        let error =
            envp.map { posix_spawn(&pid, executable, actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, executable, actions, &attributes, argv, environ)
        guard error == 0 else { throw SystemCallError(call: "posix_spawn", errno: error) }
        return pid
    }

    /// Waits for the child `pid` to end and reaps it.
    public static func wait(_ pid: pid_t) -> Exit {
        var status: Int32 = 0
        _ = retryingInterrupts { waitpid(pid, &status, 0) }
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal)
    }

    /// Waits for the child `pid` to end without reaping it, so that its pid (and process group)
    /// cannot be another's until ``wait(_:)``.
    public static func waitUnreaped(_ pid: pid_t) {
        var info = siginfo_t()
        _ = retryingInterrupts { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
    }
}
