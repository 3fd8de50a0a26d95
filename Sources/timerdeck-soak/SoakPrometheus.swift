import Foundation

/// Debian's `prometheus` as a child process of the soak: a remote-write receiver on loopback with
/// its database in `directory`, read back through its query API.
///
/// Ends with the soak: terminated when released, and by the kernel if the soak dies (setpriv's
/// parent-death signal).
final class SoakPrometheus {
    static let binary = "/usr/bin/prometheus"

    let port: Int
    private let process = Process()

    /// Starts Prometheus on `port` and waits (at most 30 s) until it is ready.
    init(directory: URL, port: Int) throws {
        self.port = port
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("prometheus.yml")
        try "global:\n  scrape_interval: 1h\n".write(to: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--pdeathsig", "TERM", Self.binary, "--config.file=\(config.path)",
            "--storage.tsdb.path=\(directory.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:\(port)", "--web.enable-remote-write-receiver", "--log.level=warn",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<120 {
            if (try? Data(contentsOf: url("/-/ready"))) != nil { return }
            guard process.isRunning else { break }
            usleep(250_000)
        }
        throw SoakFailure("prometheus did not start on port \(port)")
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The remote-write endpoint.
    var endpoint: String { "http://127.0.0.1:\(port)/api/v1/write" }

    /// An instant query at `time`: each series' labels and value.
    func query(_ expression: String, at time: Date) throws -> [(labels: [String: String], value: Double)] {
        var components = URLComponents(string: "http://127.0.0.1:\(port)/api/v1/query")!
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
        let text = try String(contentsOf: url("/metrics"), encoding: .utf8)
        let total = text.split(separator: "\n")
            .filter { $0.hasPrefix("prometheus_tsdb_head_samples_appended_total") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0, +)
        return total
    }

    private func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
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
