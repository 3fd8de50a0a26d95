import Foundation

/// A server of this module on 127.0.0.1 (``LocalPrometheus``, ``LocalVmagent``): its port, its
/// lives, and what every such server offers.
package protocol LoopbackServer {
    /// The port it listens on, on 127.0.0.1.
    var port: Int { get }
    /// Its child process, life after life.
    var lives: ServerProcess { get }
}

extension LoopbackServer {
    /// The remote-write endpoint it receives on.
    package var endpoint: String { "http://127.0.0.1:\(port)/api/v1/write" }

    /// The address of `path` (`/api/v1/query`, `/metrics`) on it.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// What it wrote on standard error, in all its lives.
    package var log: URL { lives.log }

    /// Ends it at once with `SIGKILL`, as `kill -9` does.
    package func kill() { lives.kill() }

    /// Ends it with `SIGTERM`, as a service manager does, giving it 60 s to finish.
    package func stop() { lives.stop(within: 60) }

    /// Starts it again on the same config and data, and waits until it is ready.
    package func start() throws { try lives.start() }
}
