import Foundation
import Glibc
import TestSupport

/// The built `timerdeck` binary run as a child process, headless, for start-up and exit tests.
struct TimerDeckProcess {
    static let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("timerdeck").path
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// How a finished run ended.
    struct Outcome {
        let status: Int32
        let reason: Process.TerminationReason
        let standardError: String
    }

    let process = Process()
    private let errors = Pipe()

    /// Starts `timerdeck --headless --script script` with `arguments` after it, as user `nobody`
    /// (through `setpriv`, found through ``TestRequirements``) when `unprivileged`, with
    /// `environment` added to this process's, its standard output into the file `output` if given.
    init(
        script: String, _ arguments: [String], unprivileged: Bool = false, environment: [String: String] = [:],
        output: URL? = nil
    ) throws {
        let command = [Self.binary, "--headless", "--script", script] + arguments
        if unprivileged && getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: try TestRequirements.command("setpriv"))
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups"] + command
        } else {
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let output {
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: output)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = errors
        try process.run()
    }

    /// Waits for the end (the child's own exit, a real event) and collects its standard error.
    ///
    /// A child still running after `seconds` is killed, so that a hung run fails its test (with
    /// `SIGKILL` as the reason) instead of holding up the suite; the bound is never an assertion.
    func finish(within seconds: Int = 300) -> Outcome {
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(seconds), execute: watchdog)
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        watchdog.cancel()
        return Outcome(status: process.terminationStatus, reason: process.terminationReason, standardError: text)
    }
}
