import Foundation

/// Debian's `prometheus` as a child process on loopback: a remote-write receiver
/// (`--web.enable-remote-write-receiver`) with no scrape target and its database in a directory of
/// the owner's, for the uploads soak and the tests that read points back through its query API.
///
/// It ends with its owner: terminated when released, and by the kernel when the owner dies
/// (`setpriv` execs Prometheus in its place, the pid `terminate()` signals, with a parent-death
/// signal), so none is left running.
package final class LocalPrometheus {
    /// The port it listens on, on 127.0.0.1.
    package let port: Int
    private let process = Process()

    /// Starts Prometheus on `port` with its config and database in `directory` (created if
    /// missing; `configuration` is appended to its config, after `global`) and waits, at most a
    /// minute, until `isReady` says it answers (by default: a plain `GET /-/ready` does).
    ///
    /// `webConfigFile` is passed as `--web.config.file` (TLS, basic auth); a server behind one
    /// needs an `isReady` that speaks to it, each call ending within its own timeout. `programs`
    /// finds `prometheus` and `setpriv` (``ProgramLookup``).
    ///
    /// - Throws: ``StartFailure`` with what it wrote on standard error when it does not become
    ///   ready, and what `programs` throws.
    package init(
        directory: URL, port: Int, configuration: String = "", webConfigFile: String? = nil,
        isReady: (() -> Bool)? = nil, programs: ProgramLookup = debianProgram
    ) throws {
        let prometheus = try programs("prometheus")
        let setpriv = try programs("setpriv")
        self.port = port
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("prometheus.yml")
        try ("global:\n  scrape_interval: 1h\n" + configuration).write(to: config, atomically: true, encoding: .utf8)
        let errors = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments = [
            "--pdeathsig", "TERM", prometheus, "--config.file=\(config.path)",
            "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:\(port)", "--web.enable-remote-write-receiver", "--log.level=warn",
        ]
        if let webConfigFile { process.arguments?.append("--web.config.file=\(webConfigFile)") }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let readiness = url("/-/ready")
        let ready = isReady ?? { (try? Data(contentsOf: readiness)) != nil }
        let giveUp = Date().addingTimeInterval(60)
        while Date() < giveUp, process.isRunning {
            if ready() { return }
            usleep(250_000)
        }
        process.stop(within: 10)
        let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        throw StartFailure(description: "prometheus did not become ready on port \(port): \(log)")
    }

    deinit {
        process.stop(within: 30)
    }

    /// The remote-write endpoint.
    package var endpoint: String { "http://127.0.0.1:\(port)/api/v1/write" }

    /// The address of `path` (`/api/v1/query`, `/metrics`) on it.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Prometheus did not start; the description has its own words.
    package struct StartFailure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }
}
