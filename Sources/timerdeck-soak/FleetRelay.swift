import ArgumentParser
import Foundation
import LocalServers

/// The path between the fleet and its store: a relay, or none. How the relay soak starts, kills
/// and reads it.
final class FleetRelay {
    /// Which path.
    enum Kind: String, CaseIterable, ExpressibleByArgument {
        /// Straight into the store: the outboxes alone, for comparison.
        case direct
        /// vmagent, with its disk buffer (``LocalVmagent``).
        case vmagent
        /// Prometheus in agent mode, with its write-ahead log (``LocalPrometheus/Role/agent(forwardingTo:)``).
        case agent
    }

    /// A relay server: its metrics, disk and log, and how to kill and restart it.
    struct Server {
        /// Its own metrics.
        let metrics: URL
        /// What it keeps on disk: vmagent's buffer or the agent's write-ahead log.
        let disk: URL
        /// Its log, in all its lives.
        let log: URL
        /// Its counter of the payload bytes it sent the store (compressed remote-write bodies).
        let sentBytesMetric: String
        /// Its counter of the bytes it read from the instances (requests with their headers), where it
        /// has one.
        let receivedBytesMetric: String?
        /// Ends it at once (`SIGKILL`).
        let kill: () -> Void
        /// Ends it as a service manager does (`SIGTERM`).
        let stop: () -> Void
        /// Starts it again on the same data.
        let start: () throws -> Void
    }

    let kind: Kind
    /// The remote-write endpoint the instances write to.
    let endpoint: String
    /// The relay, unless the path is ``Kind/direct``.
    let server: Server?

    /// Starts the relay `kind` on `port` with its data in `directory`, forwarding to `store`.
    init(_ kind: Kind, directory: URL, port: Int, store: String) throws {
        self.kind = kind
        switch kind {
        case .direct:
            (endpoint, server) = (store, nil)
        case .vmagent:
            let vmagent = try LocalVmagent(directory: directory, port: port, forwardingTo: store)
            endpoint = vmagent.endpoint
            server = Server(
                metrics: vmagent.url("/metrics"), disk: vmagent.bufferDirectory, log: vmagent.log,
                sentBytesMetric: "vmagent_remotewrite_bytes_sent_total",
                receivedBytesMetric: "vm_tcplistener_read_bytes_total", kill: vmagent.kill, stop: vmagent.stop,
                start: vmagent.start)
        case .agent:
            let agent = try LocalPrometheus(directory: directory, port: port, role: .agent(forwardingTo: store))
            endpoint = agent.endpoint
            server = Server(
                metrics: agent.url("/metrics"), disk: directory.appendingPathComponent("wal"), log: agent.log,
                sentBytesMetric: "prometheus_remote_storage_bytes_total", receivedBytesMetric: nil, kill: agent.kill,
                stop: agent.stop, start: agent.start)
        }
    }
}
