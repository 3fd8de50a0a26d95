import Foundation
import Glibc
import Synchronization
import TestSupport

/// The test collector (`Tests/Collector/collector.py`) running as a child process on loopback.
///
/// Started per test with its behaviour flags; the port is read from its first stdout line.
/// Stopped when released: closing its stdin makes it exit, and it is terminated as well.
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

    let port: Int
    private let process: Process
    private let input: Pipe

    static let scriptPath = RepositoryFile.path("Tests/Collector/collector.py")

    /// Starts the collector with `arguments` (e.g. `["--fail-first", "2"]`) and waits for its port.
    init(_ arguments: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptPath] + arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()

        let firstLine = Mutex<String?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var bytes: [UInt8] = []
            while !bytes.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                bytes += chunk
            }
            firstLine.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
            ready.signal()
        }
        guard ready.wait(timeout: .now() + callbackTimeout) == .success,
            let line = firstLine.withLock({ $0 }),
            let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            Self.stop(process, input)
            throw CollectorFailure("the collector printed no port")
        }
        self.port = port
    }

    deinit {
        Self.stop(process, input)
    }

    /// The URL batches are posted to.
    var endpoint: String { "http://127.0.0.1:\(port)/batches" }

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

    private static func stop(_ process: Process, _ input: Pipe) {
        try? input.fileHandleForWriting.close()
        process.stop(within: 30)
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
