import Foundation
import LocalServers
import Uploads

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The soak's collector (``LocalCollector``) and what it stored.
final class SoakCollector {
    /// What the collector stored.
    struct Received: Decodable {
        let requests: Int
        let seqs: [Int64]
        let duplicates: Int
        let truncated: Int
    }

    private let server: LocalCollector

    /// Starts the collector, alive for `lifetime` seconds at most.
    init(lifetime: Int) throws {
        server = try LocalCollector(["--lifetime", String(lifetime)])
    }

    /// The URL batches are posted to.
    var endpoint: String { server.endpoint }

    /// `GET /received`.
    func received() throws -> Received {
        try JSONDecoder().decode(Received.self, from: Data(contentsOf: server.url("/received")))
    }
}

/// The sample route in this repository (`Resources/route.gpx`), which the soaks replay.
func shippedRoute() throws -> RouteReplay {
    let script = LocalCollector.scriptPath
    return try RouteReplay(
        contentsOf: URL(
            fileURLWithPath: String(script.dropLast("Tests/Collector/collector.py".count)) + "Resources/route.gpx"))
}

/// The soak could not run; the message says why.
struct SoakFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
