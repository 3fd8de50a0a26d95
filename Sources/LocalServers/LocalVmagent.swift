import Foundation

/// VictoriaMetrics' `vmagent` (Debian's `victoria-metrics` package) as a child process on
/// loopback: a relay that receives Prometheus remote writes, buffers them on disk
/// (`-remoteWrite.tmpDataPath`) and forwards them to one remote-write receiver.
///
/// It sends over one queue (`-remoteWrite.queues=1`): with several, the blocks of one series go out
/// side by side, and a receiver that refuses older samples than it holds (Prometheus) refuses the
/// block that arrives second, which vmagent then drops. It flushes what it received every second.
///
/// Like ``LocalPrometheus`` it ends with its owner (``ServerProcess``); ``kill()`` and ``start()``
/// are the fleet soak's `kill -9`s and restarts on the same disk buffer.
package final class LocalVmagent {
    /// The port it listens on, on 127.0.0.1.
    package let port: Int
    /// Its disk buffer.
    package let bufferDirectory: URL
    private let server: ServerProcess

    /// Starts vmagent on `port`, forwarding to the remote-write `endpoint`, with its buffer and log in
    /// `directory` (created if missing), and waits until `/health` answers. `programs` finds
    /// `vmagent` and `setpriv` (``ProgramLookup``).
    ///
    /// - Throws: ``ServerProcess/StartFailure`` with its log when it does not become ready, and
    ///   what `programs` throws.
    package init(directory: URL, port: Int, forwardingTo endpoint: String, programs: ProgramLookup = debianProgram)
        throws
    {
        self.port = port
        bufferDirectory = directory.appendingPathComponent("buffer")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let health = URL(string: "http://127.0.0.1:\(port)/health")!
        server = try ServerProcess(
            name: "vmagent on port \(port)", program: try programs("vmagent"),
            arguments: [
                "-httpListenAddr=127.0.0.1:\(port)", "-remoteWrite.url=\(endpoint)",
                "-remoteWrite.tmpDataPath=\(bufferDirectory.path)", "-remoteWrite.queues=1",
                "-remoteWrite.flushInterval=1s", "-loggerLevel=WARN",
            ],
            log: directory.appendingPathComponent("stderr"), isReady: { (try? Data(contentsOf: health)) != nil },
            programs: programs)
        try server.start()
    }

    /// The remote-write endpoint it receives on.
    package var endpoint: String { "http://127.0.0.1:\(port)/api/v1/write" }

    /// The address of `path` (`/metrics`) on it.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// What it wrote on standard error, in all its lives.
    package var log: URL { server.log }

    /// Ends it at once with `SIGKILL`, as `kill -9` does.
    package func kill() { server.kill() }

    /// Ends it with `SIGTERM`, as a service manager does, giving it 60 s to finish.
    package func stop() { server.stop(within: 60) }

    /// Starts it again on the same buffer, and waits until it is ready.
    package func start() throws { try server.start() }
}
