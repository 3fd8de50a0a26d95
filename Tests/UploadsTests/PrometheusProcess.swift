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

    /// The web config it was started with, if any.
    let web: Web?
    private let scratch: ScratchDirectory
    private let server: LocalPrometheus

    /// Starts Prometheus (``LocalPrometheus``) on a free port in a scratch directory, the programs
    /// found through the test requirements list (``TestRequirements``).
    ///
    /// `outOfOrderWindow`, when given, accepts samples that much older than the newest; `web`
    /// serves every endpoint over TLS, to `web.user` only.
    init(outOfOrderWindow: String? = nil, web: Web? = nil) throws {
        self.web = web
        scratch = try ScratchDirectory(prefix: "prometheus")
        var webConfigFile: String?
        if let web {
            var text = "tls_server_config:\n  cert_file: \(web.certFile)\n  key_file: \(web.keyFile)\n"
            if let clientCAFile = web.clientCAFile {
                text += "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: \(clientCAFile)\n"
            }
            text += "basic_auth_users:\n  \(web.user): '\(try TLSFixture.bcrypt(web.password))'\n"
            webConfigFile = try scratch.write(text, to: "web.yml")
        }
        let port = try CollectorProcess.unusedPort()
        let readiness = Self.base(port: port, web: web) + "/-/ready"
        do {
            // Each readiness poll ends within its own timeout; LocalPrometheus gives up after a minute.
            server = try LocalPrometheus(
                directory: scratch.url, port: port,
                configuration: outOfOrderWindow.map { "storage:\n  tsdb:\n    out_of_order_time_window: \($0)\n" }
                    ?? "",
                webConfigFile: webConfigFile,
                isReady: { (try? Self.request(readiness, web: web, timeout: 2)) != nil },
                programs: TestRequirements.command)
        } catch let failure as LocalPrometheus.StartFailure {
            throw CollectorFailure(failure.description)
        }
    }

    /// The port it listens on.
    var port: Int { server.port }
    /// The remote-write endpoint.
    var endpoint: String { "\(base)/api/v1/write" }

    /// `http://127.0.0.1:PORT`, or with TLS `https://localhost:PORT` (the name its certificate holds).
    var base: String { Self.base(port: port, web: web) }

    private static func base(port: Int, web: Web?) -> String {
        web == nil ? "http://127.0.0.1:\(port)" : "https://localhost:\(port)"
    }

    /// A `GET` of `url`, with the web config's credentials if any.
    private static func request(_ url: String, web: Web?, timeout seconds: Int) throws -> Data {
        guard let web else { return try loopbackRequest("GET", url, timeout: seconds) }
        return try securedRequest(
            "GET", url, user: web.user, password: web.password, clientCertificate: web.clientCertificate,
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
        let answer = try JSONDecoder().decode(Answer.self, from: try Self.request(url, web: web, timeout: 60))
        return answer.data.result
    }
}
