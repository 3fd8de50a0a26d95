import Foundation

/// Debian's `prometheus` as a child process on loopback, in one of two roles:
///
/// - ``Role/store``: a remote-write receiver (`--web.enable-remote-write-receiver`) with no scrape
///   target and its database in a directory of the owner's, for the uploads soak and the tests
///   that read points back through its query API;
/// - ``Role/agent(forwardingTo:)``: Prometheus in agent mode (`--enable-feature=agent`) as a relay,
///   receiving remote writes into its write-ahead log and forwarding them to another receiver.
///
/// It ends with its owner: terminated when released, and by the kernel when the owner dies
/// (``ServerProcess``), so none is left running. ``kill()`` and ``start()`` give the fleet soak its
/// `kill -9`s and restarts on the same data.
package final class LocalPrometheus: LoopbackServer {
    /// What the server is for.
    package enum Role {
        /// A database (TSDB) that stores what it receives.
        case store
        /// A relay forwarding what it receives to the remote-write `endpoint`.
        case agent(forwardingTo: String)
    }

    /// The port it listens on, on 127.0.0.1.
    package let port: Int
    /// Its child process, life after life.
    package let lives: ServerProcess

    /// A server that failed to start; the description has its own words.
    package typealias StartFailure = ServerProcess.StartFailure

    /// Starts Prometheus on `port` with its config and data in `directory` (created if missing;
    /// `configuration` is appended to its config, after `global` and an agent's `remote_write`) and
    /// waits, at most a minute, until `isReady` says it answers (by default: a plain
    /// `GET /-/ready` does).
    ///
    /// `webConfigFile` is passed as `--web.config.file` (TLS, basic auth); a server behind one
    /// needs an `isReady` that speaks to it, each call ending within its own timeout. `programs`
    /// finds `prometheus` and `setpriv` (``ProgramLookup``).
    ///
    /// - Throws: ``StartFailure`` with what it wrote on standard error when it does not become
    ///   ready, and what `programs` throws.
    package init(
        directory: URL, port: Int, role: Role = .store, configuration: String = "", webConfigFile: String? = nil,
        isReady: (() -> Bool)? = nil, programs: ProgramLookup = debianProgram
    ) throws {
        self.port = port
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("prometheus.yml")
        var arguments = [
            "--config.file=\(config.path)", "--web.listen-address=127.0.0.1:\(port)",
            "--web.enable-remote-write-receiver", "--log.level=warn",
        ]
        var text = "global:\n  scrape_interval: 1h\n"
        switch role {
        case .store:
            arguments.append("--storage.tsdb.path=\(directory.appendingPathComponent("data").path)")
        case .agent(let endpoint):
            arguments += [
                "--enable-feature=agent", "--storage.agent.path=\(directory.appendingPathComponent("wal").path)",
            ]
            // A second's deadline for a batch, so what it receives goes on within a second, as vmagent's flush does.
            text += "remote_write:\n  - url: \(endpoint)\n    queue_config:\n      batch_send_deadline: 1s\n"
        }
        try (text + configuration).write(to: config, atomically: true, encoding: .utf8)
        if let webConfigFile { arguments.append("--web.config.file=\(webConfigFile)") }
        let readiness = URL(string: "http://127.0.0.1:\(port)/-/ready")!
        lives = try ServerProcess(
            name: "prometheus on port \(port)", program: try programs("prometheus"), arguments: arguments,
            log: directory.appendingPathComponent("stderr"),
            isReady: isReady ?? { (try? Data(contentsOf: readiness)) != nil }, programs: programs)
        try lives.start()
    }
}
