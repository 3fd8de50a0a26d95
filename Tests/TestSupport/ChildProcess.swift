import Foundation
import Glibc

/// Runs an executable as a child process to its end and collects what it wrote.
///
/// Output goes to files, not pipes, so a grandchild left behind cannot hold the test up. The
/// timeout is only a bound for a hung child (it is killed), never part of an assertion.
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

    /// Runs `executable` with `arguments` (standard input from `/dev/null`) and waits for it,
    /// killing it after `timeout`.
    public static func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(120),
                           environment: [String: String]? = nil) throws -> Outcome {
        let scratch = try ScratchDirectory(prefix: "child-process")
        let outputURL = scratch.path("stdout")
        let errorURL = scratch.path("stderr")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(Int(timeout.components.seconds)), execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        try output.close()
        try error.close()
        let exited = process.terminationReason == .exit
        return Outcome(status: exited ? process.terminationStatus : nil,
                       signal: exited ? nil : process.terminationStatus,
                       output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
                       error: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
    }
}
