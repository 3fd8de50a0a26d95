import Foundation
import LocalServers

/// The fleet's Prometheus (``LocalPrometheus``), read back through its query API and its own metrics.
final class SoakPrometheus {
    private let server: LocalPrometheus

    /// Starts Prometheus on `port` with its database in `directory`.
    init(directory: URL, port: Int) throws {
        server = try LocalPrometheus(directory: directory, port: port)
    }

    /// The remote-write endpoint.
    var endpoint: String { server.endpoint }

    /// An instant query at `time`: each series' labels and value.
    func query(_ expression: String, at time: Date) throws -> [(labels: [String: String], value: Double)] {
        var components = URLComponents(url: server.url("/api/v1/query"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "query", value: expression),
            URLQueryItem(name: "time", value: String(format: "%.3f", time.timeIntervalSince1970)),
        ]
        let address = components.url!.absoluteString.replacingOccurrences(of: "+", with: "%2B")
        let answer = try JSONDecoder().decode(Answer.self, from: Data(contentsOf: URL(string: address)!))
        return answer.data.result.map { ($0.metric, Double($0.value.value) ?? .nan) }
    }

    /// `prometheus_tsdb_head_samples_appended_total` from Prometheus's own `/metrics`.
    func samplesAppended() throws -> Double {
        let text = try String(contentsOf: server.url("/metrics"), encoding: .utf8)
        let total = text.split(separator: "\n")
            .filter { $0.hasPrefix("prometheus_tsdb_head_samples_appended_total") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0, +)
        return total
    }

    private struct Answer: Decodable {
        struct Data: Decodable { let result: [Series] }
        struct Series: Decodable {
            let metric: [String: String]
            let value: Pair
        }
        /// `[time, "value"]`.
        struct Pair: Decodable {
            let value: String

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Double.self)
                value = try container.decode(String.self)
            }
        }
        let data: Data
    }
}
