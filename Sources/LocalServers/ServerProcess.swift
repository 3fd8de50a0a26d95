import Foundation

/// A server program as a child process that can be killed outright and started again on the same
/// data: the store and the relays of the fleet soak, which `kill -9`s them mid-run.
///
/// Each life runs `setpriv --pdeathsig TERM PROGRAM ARGUMENTS…` (`setpriv` execs the program in its
/// place, so the pid signalled is the program's, and the kernel ends it when the owner dies). What
/// it writes on standard error is appended to one log for all its lives, `log`.
package final class ServerProcess {
    /// The server's name in messages (`prometheus`, `vmagent`).
    package let name: String
    /// The log of every life's standard error.
    package let log: URL
    private let setpriv: String
    private let program: String
    private let arguments: [String]
    private let isReady: () -> Bool
    private var process: Process?

    /// Prepares `program` with `arguments`; nothing runs until ``start()``. `isReady` answers
    /// whether a life serves yet, each call ending within its own timeout.
    package init(
        name: String, program: String, arguments: [String], log: URL, isReady: @escaping () -> Bool,
        programs: ProgramLookup
    ) throws {
        self.name = name
        self.program = program
        self.arguments = arguments
        self.log = log
        self.isReady = isReady
        setpriv = try programs("setpriv")
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
    }

    deinit {
        process?.stop(within: 30)
    }

    /// Whether the current life is running.
    package var isRunning: Bool { process?.isRunning ?? false }

    /// Starts a life and waits, at most `seconds`, until `isReady` says it serves.
    ///
    /// - Throws: ``StartFailure`` with the end of the log when it does not become ready.
    package func start(within seconds: TimeInterval = 60) throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: setpriv)
        child.arguments = ["--pdeathsig", "TERM", program] + arguments
        child.standardOutput = FileHandle.nullDevice
        let errors = try FileHandle(forWritingTo: log)
        errors.seekToEndOfFile()
        child.standardError = errors
        try child.run()
        try? errors.close()
        process = child
        let giveUp = Date().addingTimeInterval(seconds)
        while Date() < giveUp, child.isRunning {
            if isReady() { return }
            usleep(100_000)
        }
        child.stop(within: 10)
        let tail = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").suffix(2_000)
        throw StartFailure(description: "\(name) did not become ready: \(tail)")
    }

    /// Ends the current life at once with `SIGKILL`, as `kill -9` does, and reaps it.
    package func kill() {
        guard let process, process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Ends the current life with `SIGTERM` (then `SIGKILL` after `seconds`) and reaps it.
    package func stop(within seconds: Int) {
        process?.stop(within: seconds)
    }

    /// A server did not start; the description has its own words.
    package struct StartFailure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }
}
