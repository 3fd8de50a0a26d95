import Foundation
import LocalServers
import TestSupport

/// A Prometheus per test (``LocalPrometheus``) on a free port with a scratch TSDB, read back
/// through its query API.
final class PrometheusProcess {
    /// One stored sample: the time in milliseconds since the epoch and the value.
    struct Point: Equatable, CustomStringConvertible {
        let milliseconds: Int64
        let value: Double

        var description: String { "\(value)@\(milliseconds)" }
    }

    static var isInstalled: Bool { LocalPrometheus.isInstalled }

    private let scratch: ScratchDirectory
    private let server: LocalPrometheus

    /// Starts Prometheus (``LocalPrometheus``) on a free port in a scratch directory.
    ///
    /// `outOfOrderWindow`, when given, accepts samples that much older than the newest.
    init(outOfOrderWindow: String? = nil) throws {
        scratch = try ScratchDirectory(prefix: "prometheus")
        do {
            server = try LocalPrometheus(
                directory: scratch.url, port: try CollectorProcess.unusedPort(),
                configuration: outOfOrderWindow.map { "storage:\n  tsdb:\n    out_of_order_time_window: \($0)\n" }
                    ?? "")
        } catch let failure as LocalPrometheus.StartFailure {
            throw CollectorFailure(failure.description)
        }
    }

    /// The port it listens on.
    var port: Int { server.port }
    /// The remote-write endpoint.
    var endpoint: String { server.endpoint }

    /// Every stored sample of every series matching `selector` (e.g. `{instance="a"}`) in the
    /// `window` (a PromQL duration) before `end`, by series; a series is named by its `__name__`.
    func samples(_ selector: String, window: String, end: Date) throws -> [String: [Point]] {
        let result = try query("\(selector)[\(window)]", at: end)
        var series: [String: [Point]] = [:]
        for entry in result {
            let name = entry.metric["__name__"] ?? ""
            series[name, default: []] += (entry.values ?? []).map {
                Point(milliseconds: Int64(($0.time * 1000).rounded()), value: Double($0.value) ?? .nan)
            }
        }
        return series
    }

    /// The value of an instant query that yields one number (e.g. `count(...)`), or nil when empty.
    func scalar(_ expression: String, at time: Date) throws -> Double? {
        try query(expression, at: time).first?.value.flatMap { Double($0.value) }
    }

    private struct Answer: Decodable {
        struct Data: Decodable { let result: [Series] }
        let status: String
        let data: Data
    }

    private struct Series: Decodable {
        let metric: [String: String]
        let values: [Pair]?
        let value: Pair?
    }

    /// `[time, "value"]` as the query API writes it.
    private struct Pair: Decodable {
        let time: Double
        let value: String

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            time = try container.decode(Double.self)
            value = try container.decode(String.self)
        }
    }

    private func query(_ expression: String, at time: Date) throws -> [Series] {
        var components = URLComponents(url: server.url("/api/v1/query"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "query", value: expression),
            URLQueryItem(name: "time", value: String(format: "%.3f", time.timeIntervalSince1970)),
        ]
        // `+` is a space in a query string: PromQL's own `+` must be escaped.
        let url = components.url!.absoluteString.replacingOccurrences(of: "+", with: "%2B")
        let answer = try JSONDecoder().decode(Answer.self, from: try loopbackRequest("GET", url, timeout: 60))
        return answer.data.result
    }
}
