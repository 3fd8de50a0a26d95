import Foundation
import Glibc
import RunLoopKit

// The platform layer is a module of the dashboard's package, and compiled into this one where these
// helpers are built by the benchmark's package (which sees the repository's products only).
#if canImport(AppPlatform)
import AppPlatform
#endif

/// Runs an executable as a child process to its end and collects what it wrote.
///
/// Output goes to files, not pipes, so a grandchild left behind (a tmux server) cannot hold the
/// test up. The child is started and reaped by the package's `Spawn`. The timeout is only a bound for a hung child
/// (it is killed), never part of an assertion.
public enum ChildProcess {
    /// How a child ended and what it wrote.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// The exit status, or `nil` if a signal ended it.
        public let status: Int32?
        /// The signal that ended it, or `nil` if it exited.
        public let signal: Int32?
        /// Standard output.
        public let output: String
        /// Standard error.
        public let error: String

        public var description: String {
            "\(status.map { "exit \($0)" } ?? "signal \(signal ?? 0)")\nstdout: \(output)\nstderr: \(error)"
        }
    }

    /// A child that could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The executable.
        public let executable: String
        /// `posix_spawn`'s error number.
        public let code: Int32

        public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
    }

    /// Runs `executable` with `arguments` (standard input from `standardInput`, `/dev/null` unless
    /// told) and waits for it, killing it after `timeout`. `environment` replaces the test's
    /// environment when given.
    ///
    /// An executable the package did not build is a program of the machine, found through
    /// ``TestRequirements/command(_:)``: a name (`rsvg-convert`) or a path (`/bin/sh`) that
    /// `Tests/requirements.txt` lists.
    ///
    /// - Throws: ``TestRequirements/Unmet`` for a program not listed or not installed,
    ///   ``SpawnError`` when the child cannot start.
    public static func run(
        _ executable: String, _ arguments: [String], timeout: Duration = .seconds(120),
        environment: [String: String]? = nil, standardInput: String = "/dev/null"
    ) throws -> Outcome {
        let executable =
            executable.hasPrefix(BuiltProduct.directory.path + "/")
            ? executable : try TestRequirements.command(executable)
        let scratch = try ScratchDirectory(prefix: "child-process")
        let outputPath = scratch.path("stdout").path
        let errorPath = scratch.path("stderr").path

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let childPid: pid_t
        do {
            childPid = try Spawn.start(
                executable, arguments: arguments, environment: environment.map { $0.map { "\($0.key)=\($0.value)" } },
                actions: &actions)
        } catch {
            throw SpawnError(executable: executable, code: error.errno)
        }
        let watchdog = DispatchWorkItem { kill(childPid, SIGKILL) }
        DispatchQueue.global().asyncAfter(
            deadline: .now() + .seconds(Int(timeout.components.seconds)), execute: watchdog)
        let exit = Spawn.wait(childPid)
        watchdog.cancel()

        return Outcome(
            status: { if case .exited(let status) = exit { status } else { nil } }(),
            signal: { if case .killed(let signal) = exit { signal } else { nil } }(),
            output: String(
                decoding: (try? Data(contentsOf: URL(fileURLWithPath: outputPath))) ?? Data(), as: UTF8.self),
            error: String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: errorPath))) ?? Data(), as: UTF8.self))
    }
}
