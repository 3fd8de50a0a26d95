import Glibc

/// `/bin/sh -c SCRIPT` started as timerdeck starts its children (hooks and their watcher): in a
/// process group of its own, so stopping the group stops everything it started and the terminal's
/// `Ctrl-C` does not reach it, and with no signal blocked (timerdeck blocks its own in every thread).
enum Shell {
    /// Starts `/bin/sh -c script` with `actions` and `environment` (`NAME=value` strings, `nil`
    /// last); returns its pid, which is also its process group, or `posix_spawn`'s error number.
    static func start(
        _ script: String, actions: inout posix_spawn_file_actions_t,
        environment: UnsafePointer<UnsafeMutablePointer<CChar>?>
    ) -> (pid: pid_t, error: Int32) {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        let arguments: [String] = ["/bin/sh", "-c", script]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environment)
        return (pid, error)
    }
}
