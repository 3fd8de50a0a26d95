import CPseudoTerminal
import Glibc

/// A program running in a pseudo-terminal, started the way a terminal emulator starts one: in its
/// own session, with the terminal's slave side as its controlling terminal and as standard input,
/// output and error. The benchmark holds the master side: what it writes there is typed, what it
/// reads there is what the program drew.
///
/// Not thread-safe; one measurement drives it. Closing the master (``close()``, or the benchmark
/// dying) hangs the terminal up, which sends the program `SIGHUP`.
final class PseudoTerminal {
    /// The master side (non-blocking, close-on-exec).
    let master: Int32
    /// The program's process id.
    let pid: pid_t
    /// Bytes read from the master so far.
    private(set) var bytesRead = 0
    /// The exit status once the program was reaped.
    private(set) var exitStatus: Int32?
    /// Whether the master is open: `false` after ``close()`` or once the program has ended.
    private(set) var isOpen = true
    private var buffer = [UInt8](repeating: 0, count: 65_536)

    /// Starts `executable` with `arguments` and exactly `environment` ("NAME=value") on a new
    /// terminal of `rows` × `columns` cells.
    init(executable: String, arguments: [String], environment: [String], rows: Int, columns: Int) throws(BenchError) {
        let master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw BenchError("posix_openpt: \(Self.lastError())") }
        var name = [CChar](repeating: 0, count: 256)
        guard grantpt(master) == 0, unlockpt(master) == 0, ptsname_r(master, &name, name.count) == 0 else {
            let error = Self.lastError()
            Glibc.close(master)
            throw BenchError("cannot unlock the pseudo-terminal: \(error)")
        }
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Opened without O_NOCTTY by a session leader, the slave becomes the controlling terminal.
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, STDIN_FILENO, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, STDIN_FILENO, STDERR_FILENO)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGCHLD, SIGWINCH, SIGTSTP, SIGCONT] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes, cpt_posix_spawn_setsid() | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
            for variable in envp { free(variable) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            Glibc.close(master)
            throw BenchError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.master = master
        self.pid = pid
    }

    deinit {
        close()
    }

    /// Types `bytes`, waiting for room if the terminal's input queue is full.
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count, isOpen {
            let written = retryingInterrupts {
                bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EAGAIN {
                var descriptor = pollfd(fd: master, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 100)
            } else {
                return
            }
        }
    }

    /// Waits at most `timeout` nanoseconds for output; `true` as soon as there is some to read.
    func waitForOutput(timeout: Int64) -> Bool {
        guard isOpen else { return false }
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        // Whole milliseconds, rounded up: the wait ends when output arrives, the timeout only bounds it.
        let milliseconds = Int32(clamping: Nanoseconds.millisecondsRoundedUp(max(timeout, 0)))
        return retryingInterrupts { poll(&descriptor, 1, milliseconds) } > 0
    }

    /// Reads everything available now, without waiting; returns the byte count (0 when none).
    @discardableResult
    func readAvailable() -> Int {
        var total = 0
        while isOpen {
            let count = retryingInterrupts {
                buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
            }
            if count > 0 {
                total += count
            } else if count < 0, errno == EAGAIN {
                break
            } else {
                // EIO (or end of file): every slave descriptor is closed, the program ended.
                hangUp()
            }
        }
        bytesRead += total
        return total
    }

    /// Reads and discards output for `duration` nanoseconds; returns the byte count.
    @discardableResult
    func drain(for duration: Int64) -> Int {
        let deadline = monotonicNanoseconds() + duration
        var total = readAvailable()
        while isOpen, monotonicNanoseconds() < deadline {
            if waitForOutput(timeout: deadline - monotonicNanoseconds()) { total += readAvailable() }
        }
        return total
    }

    /// Reads until no output came for `quiet` nanoseconds, for at most `limit`; returns the byte count.
    @discardableResult
    func drain(untilQuietFor quiet: Int64, limit: Int64) -> Int {
        let deadline = monotonicNanoseconds() + limit
        var total = readAvailable()
        while isOpen, monotonicNanoseconds() < deadline, waitForOutput(timeout: quiet) {
            total += readAvailable()
        }
        return total
    }

    /// Waits at most `timeout` nanoseconds for the program to end by itself (reading its output
    /// meanwhile), then kills it; returns its wait status.
    @discardableResult
    func waitForExit(timeout: Int64) -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = monotonicNanoseconds() + timeout
        while isOpen, monotonicNanoseconds() < deadline {
            if waitForOutput(timeout: deadline - monotonicNanoseconds()) { readAvailable() }
        }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        exitStatus = status
        return status
    }

    /// Hangs up and reaps the program (killing it if the hang-up does not end it at once).
    func close() {
        hangUp()
        if exitStatus == nil { waitForExit(timeout: 0) }
    }

    private func hangUp() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(master)
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }
}

/// A measurement that could not be made; the message says which and why.
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
