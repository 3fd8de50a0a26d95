import ArgumentParser
import Foundation
import LocalServers
import Uploads

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
        try get(expression, at: time, on: address).map { ($0.metric, $0.value.flatMap { Double($0.value) } ?? .nan) }
    }

    /// The values of a range query's series (`name{…}[1d]`) at `time`, as whole numbers.
    func query(_ expression: String, values time: Date) throws -> Set<Int64> {
        let series = try Self.get(expression, at: time, on: server.url("/api/v1/query"))
        return Set(series.flatMap { ($0.values ?? []).compactMap { Double($0.value).map { Int64($0) } } })
    }

    /// The series of `expression`'s answer at `time` from the query endpoint `address`.
    private static func get(_ expression: String, at time: Date, on address: URL) throws -> [PromQLAnswer.Series] {
        var components = URLComponents(url: address, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "query", value: expression),
            URLQueryItem(name: "time", value: String(format: "%.3f", time.timeIntervalSince1970)),
        ]
        let request = components.url!.absoluteString.replacingOccurrences(of: "+", with: "%2B")
        let answer = try JSONDecoder().decode(PromQLAnswer.self, from: Data(contentsOf: URL(string: request)!))
        guard answer.status == "success", let result = answer.data?.result else {
            throw ValidationError("the store answered \(expression) with \(answer.status)")
        }
        return result
    }

    /// `prometheus_tsdb_head_samples_appended_total` from Prometheus's own `/metrics`.
    func samplesAppended() throws -> Double {
        metricSum(
            "prometheus_tsdb_head_samples_appended_total",
            in: try String(contentsOf: server.url("/metrics"), encoding: .utf8))
    }
}

/// The sum of every series of the metric `name` in a Prometheus text exposition (`/metrics`).
func metricSum(_ name: String, in text: String) -> Double {
    text.split(separator: "\n")
        .filter { $0.hasPrefix(name + " ") || $0.hasPrefix(name + "{") }
        .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        .reduce(0, +)
}
