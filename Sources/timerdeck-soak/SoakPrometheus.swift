import Foundation
import LocalServers

/// The soaks' store, a ``LocalPrometheus``, read back through its query API and its own metrics.
final class SoakPrometheus {
    /// The server.
    let server: LocalPrometheus

    /// Starts Prometheus as a store on `port` with its database in `directory`; with
    /// `outOfOrderWindow` (`1h`) it accepts samples that much older than a series' newest.
    init(directory: URL, port: Int, outOfOrderWindow: String? = nil) throws {
        server = try LocalPrometheus(
            directory: directory, port: port,
            configuration: outOfOrderWindow.map { "storage:\n  tsdb:\n    out_of_order_time_window: \($0)\n" } ?? "")
    }

    /// The remote-write endpoint.
    var endpoint: String { server.endpoint }

    /// An instant query at `time`: each series' labels and value.
    func query(_ expression: String, at time: Date) throws -> [(labels: [String: String], value: Double)] {
        try Self.query(expression, at: time, on: server.url("/api/v1/query"))
    }

    /// An instant query at `time` on the query endpoint `address`.
    static func query(_ expression: String, at time: Date, on address: URL) throws -> [(
        labels: [String: String], value: Double
    )] {
        try get(Answer.self, expression, at: time, on: address).data.result.map {
            ($0.metric, Double($0.value.value) ?? .nan)
        }
    }

    /// The values of a range query's series (`name{…}[1d]`) at `time`, as whole numbers.
    func query(_ expression: String, values time: Date) throws -> Set<Int64> {
        let answer = try Self.get(RangeAnswer.self, expression, at: time, on: server.url("/api/v1/query"))
        return Set(answer.data.result.flatMap { $0.values.compactMap { Double($0.value).map { Int64($0) } } })
    }

    private static func get<Answer: Decodable>(
        _ answer: Answer.Type, _ expression: String, at time: Date, on address: URL
    ) throws -> Answer {
        var components = URLComponents(url: address, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "query", value: expression),
            URLQueryItem(name: "time", value: String(format: "%.3f", time.timeIntervalSince1970)),
        ]
        let request = components.url!.absoluteString.replacingOccurrences(of: "+", with: "%2B")
        return try JSONDecoder().decode(Answer.self, from: Data(contentsOf: URL(string: request)!))
    }

    /// `prometheus_tsdb_head_samples_appended_total` from Prometheus's own `/metrics`.
    func samplesAppended() throws -> Double {
        metricSum(
            "prometheus_tsdb_head_samples_appended_total",
            in: try String(contentsOf: server.url("/metrics"), encoding: .utf8))
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

    private struct RangeAnswer: Decodable {
        struct Data: Decodable { let result: [Series] }
        struct Series: Decodable { let values: [Answer.Pair] }
        let data: Data
    }
}

/// The sum of every series of the metric `name` in a Prometheus text exposition (`/metrics`).
func metricSum(_ name: String, in text: String) -> Double {
    text.split(separator: "\n")
        .filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
        .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        .reduce(0, +)
}
