import AppPlatform
import Glibc
import RunLoopKit
import Synchronization

/// The process groups of the hooks that are running (each hook leads its own), so that none
/// outlives the dashboard: ``stopAll()`` stops them on quit (and any hook that starts after it, one
/// that was waiting for a thread), and a watcher process stops them when timerdeck dies without
/// quitting, even by `kill -9`.
///
/// The watcher is a shell started with the first hook, in a process group of its own. It reads each
/// group's start and end from a socket whose other end only timerdeck holds; when the socket ends
/// (timerdeck closed it or died, which the kernel does for it) it kills the groups still listed and
/// exits. A parent-death signal (`PR_SET_PDEATHSIG`) would reach the hook's shell only, not what
/// the shell started, and fires when the spawning thread ends rather than the process.
final class HookGroups: Sendable {
    private struct State {
        var groups: Set<pid_t> = []
        /// timerdeck's end of the watcher's socket; -1 before the first hook.
        var socket: Int32 = -1
        var watcher: pid_t = 0
        /// Set by ``stopAll()``: the dashboard is quitting, and no hook may run any more.
        var isClosed = false
    }

    private let state = Mutex(State())

    /// The watcher's script: `+ GROUP` and `- GROUP` lines keep the list; at the end of its input it
    /// kills the groups left.
    private static let watcherScript = """
        groups=' '
        while read -r change group; do
            case $change in
            +) groups="$groups$group " ;;
            -) case $groups in *" $group "*) groups="${groups%% $group *} ${groups#* $group }" ;; esac ;;
            esac
        done
        for group in $groups; do kill -s KILL -- "-$group" 2>/dev/null; done
        """

    /// Whether hooks may still start: false once ``stopAll()`` ran.
    var isOpen: Bool {
        state.withLock { !$0.isClosed }
    }

    /// Notes that the hook leading process group `group` started; after ``stopAll()`` it stops the
    /// group at once instead.
    func started(_ group: pid_t) {
        state.withLock { state in
            guard !state.isClosed else {
                kill(-group, SIGKILL)
                return
            }
            if state.socket < 0 { Self.startWatcher(&state) }
            state.groups.insert(group)
            Self.tell(state.socket, "+ \(group)\n")
        }
    }

    /// Notes that the hook leading `group` exited or was stopped; call it before reaping the hook,
    /// so its group cannot be another's by the time it is forgotten.
    func ended(_ group: pid_t) {
        state.withLock { state in
            state.groups.remove(group)
            Self.tell(state.socket, "- \(group)\n")
        }
    }

    /// Stops every running hook with everything it started, as the time limit does, and every hook
    /// that would start later.
    func stopAll() {
        state.withLock { state in
            state.isClosed = true
            for group in state.groups { kill(-group, SIGKILL) }
        }
    }

    deinit {
        stopAll()
        state.withLock { state in
            guard state.socket >= 0 else { return }
            close(state.socket)
            _ = Spawn.wait(state.watcher)
        }
    }

    /// Starts the watcher reading from a new socket; without one (out of descriptors) hooks run
    /// unwatched and are still stopped on quit.
    private static func startWatcher(_ state: inout State) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        // In its own group: the terminal's Ctrl-C and hang-up do not reach it, only the socket's end.
        defer { close(ends[1]) }
        do {
            state.watcher = try Shell.start(watcherScript, actions: &actions)
            state.socket = ends[0]
        } catch {
            close(ends[0])
        }
    }

    /// Writes `line` to the watcher; a watcher that is gone raises no `SIGPIPE`.
    private static func tell(_ socket: Int32, _ line: String) {
        guard socket >= 0 else { return }
        _ = line.withCString { send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }
}
