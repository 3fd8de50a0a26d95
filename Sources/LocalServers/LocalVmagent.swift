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
package final class LocalVmagent: LoopbackServer {
    /// The port it listens on, on 127.0.0.1.
    package let port: Int
    /// Its disk buffer.
    package let bufferDirectory: URL
    /// Its child process, life after life.
    package let lives: ServerProcess

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
        lives = try ServerProcess(
            name: "vmagent on port \(port)", program: try programs("vmagent"),
            arguments: [
                "-httpListenAddr=127.0.0.1:\(port)", "-remoteWrite.url=\(endpoint)",
                "-remoteWrite.tmpDataPath=\(bufferDirectory.path)", "-remoteWrite.queues=1",
                "-remoteWrite.flushInterval=1s", "-loggerLevel=WARN",
            ],
            log: directory.appendingPathComponent("stderr"), isReady: { (try? Data(contentsOf: health)) != nil },
            programs: programs)
        try lives.start()
    }
}
