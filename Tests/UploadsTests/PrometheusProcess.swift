import Foundation
import TestSupport

/// Debian's `prometheus` running as a child process on loopback, receiving remote writes
/// (`--web.enable-remote-write-receiver`) into a scratch TSDB, and read back through its query API.
///
/// Started per test on a free port; stopped when released, or by the kernel when the test process
/// dies (a parent-death signal), so none is left running.
final class PrometheusProcess {
    /// One stored sample: the time in milliseconds since the epoch and the value.
    struct Point: Equatable, CustomStringConvertible {
        let milliseconds: Int64
        let value: Double

        var description: String { "\(value)@\(milliseconds)" }
    }

    /// Prometheus's web config: TLS with `certFile` and `keyFile`, basic auth for `user`, and
    /// with `clientCAFile` a client certificate that CA signed, required; the test's own requests
    /// then present `clientCertificate` (a certificate file and its key).
    struct Web {
        var certFile: String
        var keyFile: String
        var user: String
        var password: String
        var clientCAFile: String?
        var clientCertificate: (certFile: String, keyFile: String)?
    }

    static let binary = "/usr/bin/prometheus"
    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    let port: Int
    /// The web config it was started with, if any.
    let web: Web?
    private let scratch: ScratchDirectory
    private let process = Process()

    /// Starts Prometheus with no scrape targets and waits (bounded) until `/-/ready` answers.
    ///
    /// `outOfOrderWindow`, when given, accepts samples that much older than the newest; `web`
    /// serves every endpoint over TLS, to `web.user` only.
    init(outOfOrderWindow: String? = nil, web: Web? = nil) throws {
        self.web = web
        scratch = try ScratchDirectory(prefix: "prometheus")
        let config = scratch.path("prometheus.yml")
        var text = "global:\n  scrape_interval: 1h\n"
        if let outOfOrderWindow { text += "storage:\n  tsdb:\n    out_of_order_time_window: \(outOfOrderWindow)\n" }
        try text.write(to: config, atomically: true, encoding: .utf8)
        port = try CollectorProcess.unusedPort()
        // setpriv execs Prometheus in its place (the pid `terminate()` signals) and has the kernel
        // terminate it when the test process dies.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--pdeathsig", "TERM", Self.binary, "--config.file=\(config.path)",
            "--storage.tsdb.path=\(scratch.path("data").path)",
            "--web.listen-address=127.0.0.1:\(port)", "--web.enable-remote-write-receiver", "--log.level=warn",
        ]
        if let web {
            var text = "tls_server_config:\n  cert_file: \(web.certFile)\n  key_file: \(web.keyFile)\n"
            if let clientCAFile = web.clientCAFile {
                text += "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: \(clientCAFile)\n"
            }
            text += "basic_auth_users:\n  \(web.user): '\(try TLSFixture.bcrypt(web.password))'\n"
            process.arguments?.append("--web.config.file=\(try scratch.write(text, to: "web.yml"))")
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: Self.createFile(scratch.path("stderr")))
        try process.run()
        // A bound for a server that never becomes ready, never part of an assertion: each poll
        // ends within its own timeout, and the polls within a minute.
        let giveUp = Date().addingTimeInterval(60)
        var lastError = ""
        while Date() < giveUp, process.isRunning {
            do {
                _ = try request("\(base)/-/ready", timeout: 2)
                return
            } catch {
                lastError = "\(error)"
            }
            usleep(250_000)
        }
        let log = (try? String(contentsOf: scratch.path("stderr"), encoding: .utf8)) ?? ""
        process.stop(within: 10)
        throw CollectorFailure("prometheus did not become ready (\(lastError)): \(log)")
    }

    deinit {
        process.stop(within: 30)
    }

    /// The remote-write endpoint.
    var endpoint: String { "\(base)/api/v1/write" }

    /// `http://127.0.0.1:PORT`, or with TLS `https://localhost:PORT` (the name its certificate holds).
    var base: String { web == nil ? "http://127.0.0.1:\(port)" : "https://localhost:\(port)" }

    /// A `GET` of `url`, with the web config's credentials if any.
    private func request(_ url: String, timeout seconds: Int) throws -> Data {
        guard let web else { return try loopbackRequest("GET", url, timeout: seconds) }
        return try securedRequest(
            .GET, url, user: web.user, password: web.password, clientCertificate: web.clientCertificate,
            timeout: seconds)
    }

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
        var components = URLComponents(string: "\(base)/api/v1/query")!
        components.queryItems = [
            URLQueryItem(name: "query", value: expression),
            URLQueryItem(name: "time", value: String(format: "%.3f", time.timeIntervalSince1970)),
        ]
        // `+` is a space in a query string: PromQL's own `+` must be escaped.
        let url = components.url!.absoluteString.replacingOccurrences(of: "+", with: "%2B")
        let answer = try JSONDecoder().decode(Answer.self, from: try request(url, timeout: 60))
        return answer.data.result
    }

    private static func createFile(_ url: URL) -> URL {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }
}
