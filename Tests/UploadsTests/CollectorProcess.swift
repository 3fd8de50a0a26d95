import Foundation
import Glibc
import LocalServers
import TestSupport

/// The test collector (``LocalCollector``), started per test with its behaviour flags, and what it
/// received.
final class CollectorProcess {
    /// What the collector has received, as `GET /received` reports it.
    struct Received: Decodable, Equatable {
        let requests: Int
        let batches: [String]
        let seqs: [Int64]
        let duplicates: Int
        let rejected: Int
        let dropped: Int
        let truncated: Int
        let keys: [String]
        /// The `X-Scope-OrgID` of every batch POST (`nil` where it had none).
        let tenants: [String?]
        /// The `Authorization` of every batch POST (`nil` where it had none).
        let authorizations: [String?]
    }

    private let server: LocalCollector

    /// Starts the collector (``LocalCollector``) with `arguments` (e.g. `["--fail-first", "2"]`),
    /// its `python3` found through the test requirements list (``TestRequirements``).
    init(_ arguments: [String] = []) throws {
        do {
            server = try LocalCollector(arguments, startTimeout: callbackTimeout, programs: TestRequirements.command)
        } catch let failure as LocalCollector.StartFailure {
            throw CollectorFailure(failure.description)
        }
    }

    /// The port it listens on.
    var port: Int { server.port }

    /// The URL batches are posted to.
    var endpoint: String { server.endpoint }

    /// `GET /received`.
    func received() throws -> Received {
        let data = try request("GET", path: "/received", body: nil)
        return try JSONDecoder().decode(Received.self, from: data)
    }

    /// `GET /received?requests=N&within=S`: what the collector has received once `requests` batch
    /// POSTs have arrived, or after `seconds` (a bounded wait on the server's own event).
    func received(afterRequests requests: Int, within seconds: Int) throws -> Received {
        let data = try request(
            "GET", path: "/received?requests=\(requests)&within=\(seconds)", body: nil,
            timeout: seconds + 10)
        return try JSONDecoder().decode(Received.self, from: data)
    }

    /// `POST /control` with behaviour changes, e.g. `["status": 200]`.
    func control(_ changes: [String: any Sendable]) throws {
        _ = try request("POST", path: "/control", body: try JSONSerialization.data(withJSONObject: changes))
    }

    private func request(_ method: String, path: String, body: Data?, timeout seconds: Int = 30) throws -> Data {
        try loopbackRequest(method, "http://127.0.0.1:\(port)\(path)", body: body, timeout: seconds)
    }

    /// A port on 127.0.0.1 with nothing listening: bound once by the kernel's choice, then released.
    static func unusedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw CollectorFailure("socket failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw CollectorFailure("bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
