import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loopback collector (`Tests/Collector/collector.py`) as a child process of the soak.
final class SoakCollector {
    /// What the collector stored.
    struct Received: Decodable {
        let requests: Int
        let seqs: [Int64]
        let duplicates: Int
        let truncated: Int
    }

    static let scriptPath =
        String(#filePath.dropLast("Sources/timerdeck-soak/SoakCollector.swift".count)) + "Tests/Collector/collector.py"

    let endpoint: String
    private let process = Process()
    private let input = Pipe()

    /// Starts the collector (alive for `lifetime` seconds at most) and reads its port.
    init(lifetime: Int) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptPath, "--lifetime", String(lifetime)]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line is the port; the collector prints it before serving.
        var bytes: [UInt8] = []
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            bytes += chunk
        }
        guard let port = Int(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw SoakFailure("the collector at \(Self.scriptPath) printed no port")
        }
        endpoint = "http://127.0.0.1:\(port)/batches"
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// `GET /received`.
    func received() throws -> Received {
        let url = URL(string: endpoint.replacingOccurrences(of: "/batches", with: "/received"))!
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode(Received.self, from: data)
    }
}

/// The soak could not run; the message says why.
struct SoakFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
