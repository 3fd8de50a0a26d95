import AppPlatform
import Dispatch
import Glibc
import RunLoopKit
import Synchronization
import TimeUnits

/// A timer's hook command: run by `/bin/sh -c` in its own process group, with the fire described in
/// its environment, stopped at its time limit. ``run(environment:)`` blocks, so the driver calls it
/// off the run loop thread.
///
/// ```swift
/// let hook = Hook(command: "notify-send \"$TIMERDECK_TIMER\"", timeLimit: .seconds(5))
/// let result = hook.run(environment: ["TIMERDECK_TIMER": "tea"])   // .exited(0, firstLine: "")
/// ```
struct Hook: Equatable, Sendable {
    /// How a hook ended.
    enum Result: Equatable, Sendable {
        /// It exited with `status`; `firstLine` is the first line it wrote (stdout and stderr).
        case exited(status: Int32, firstLine: String)
        /// A signal ended it.
        case killed(signal: Int32, firstLine: String)
        /// It was still running at its time limit and was stopped (with its process group).
        case timedOut(firstLine: String)
        /// It could not be started.
        case failedToStart(String)

        /// One line for the fire log.
        var summary: String {
            switch self {
            case .exited(let status, let line): "exit \(status)" + (line.isEmpty ? "" : ": \(line)")
            case .killed(let signal, let line): "killed by signal \(signal)" + (line.isEmpty ? "" : ": \(line)")
            case .timedOut(let line): "stopped at its time limit" + (line.isEmpty ? "" : ": \(line)")
            case .failedToStart(let reason): "could not start: \(reason)"
            }
        }
    }

    /// The longest first line kept; the rest of the output is read and dropped.
    static let lineLimit = 200

    /// The shell command.
    var command: String
    /// How long it may run.
    var timeLimit: Duration

    /// Runs the command with `environment` added to this process's (without the uploads'
    /// credentials: ``ChildEnvironment``), reads its first output line,
    /// and stops it at the time limit. Blocks the calling thread until it ends. Its process group is
    /// listed in `groups` while it runs, so it can be stopped before its limit.
    func run(environment: [String: String], groups: HookGroups? = nil) -> Result {
        // A hook that waited for a thread until the dashboard quit does not start.
        if let groups, !groups.isOpen { return .failedToStart("the dashboard is quitting") }
        let readEnd: Int32
        let writeEnd: Int32
        do {
            (readEnd, writeEnd) = try Shell.pipe()
        } catch {
            return .failedToStart(String(cString: strerror(error.errno)))
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, STDERR_FILENO)
        posix_spawn_file_actions_addclose(&actions, writeEnd)

        // In its own process group, so the time limit stops whatever it started too.
        let pid: pid_t
        do {
            pid = try Shell.start(command, actions: &actions, adding: environment)
        } catch {
            close(writeEnd)
            close(readEnd)
            return .failedToStart(String(cString: strerror(error.errno)))
        }
        close(writeEnd)
        defer { close(readEnd) }
        groups?.started(pid)

        let deadline = TimeSource.system.now().nanoseconds + timeLimit.nanoseconds
        let (firstLine, reachedEnd) = readFirstLine(from: readEnd, deadline: deadline)
        let child = pid
        let watch = Watch()
        if reachedEnd {
            // The output ended: the hook is exiting, or it closed its output and goes on. A watchdog
            // stops it at the deadline while this thread waits for its exit without reaping it, so
            // its process group cannot be another's when the watchdog acts.
            DispatchQueue.global().asyncAfter(
                deadline: .now() + .nanoseconds(Int(max(deadline - TimeSource.system.now().nanoseconds, 0)))
            ) {
                watch.stopUnlessExited(child)
            }
            Spawn.waitUnreaped(child)
            watch.exited()
        } else {
            watch.stopUnlessExited(child)
        }
        groups?.ended(child)
        let exit = Spawn.wait(child)
        if watch.wasStopped { return .timedOut(firstLine: firstLine) }
        switch exit {
        case .exited(let status): return .exited(status: status, firstLine: firstLine)
        case .killed(let signal): return .killed(signal: signal, firstLine: firstLine)
        }
    }

    /// Reads `descriptor` until its end or `deadline` (uptime nanoseconds), keeping the first line.
    private func readFirstLine(from descriptor: Int32, deadline: Int64) -> (line: String, reachedEnd: Bool) {
        var line: [UInt8] = []
        var lineDone = false
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let left = deadline - TimeSource.system.now().nanoseconds
            guard left > 0 else { return (Self.text(line), false) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(Nanoseconds.millisecondsRoundedUp(left), Int64(Int32.max))))
            if ready < 0 && errno != EINTR { return (Self.text(line), true) }
            guard ready > 0 else { continue }
            let count = retryingInterrupts {
                buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            }
            guard count > 0 else { return (Self.text(line), true) }
            for byte in buffer[..<count] where !lineDone {
                if byte == UInt8(ascii: "\n") || line.count >= Self.lineLimit {
                    lineDone = true
                } else {
                    line.append(byte)
                }
            }
        }
    }

    /// Whether a hook exited before its watchdog stopped it, shared by the two threads.
    private final class Watch: Sendable {
        private let state = Mutex((exited: false, stopped: false))

        /// Stops the process group `child` leads, unless it has exited (it is not reaped yet).
        func stopUnlessExited(_ child: pid_t) {
            state.withLock { state in
                guard !state.exited else { return }
                state.stopped = true
                kill(-child, SIGKILL)
            }
        }

        func exited() { state.withLock { $0.exited = true } }

        var wasStopped: Bool { state.withLock { $0.stopped } }
    }

    private static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).filter { !$0.isNewline && $0 != "\r" }
    }
}
