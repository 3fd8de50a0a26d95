import Foundation

/// Reads a delivered batch back from the store by PromQL, for a sink that writes through a relay:
/// the relay's acknowledgement says it has the batch, not that the store does.
///
/// A relay (vmagent, Prometheus in agent mode) answers 2xx once the batch is in its memory or its
/// disk buffer, and loses what it held in memory when it is killed. With a confirmation the batch
/// counts as delivered only when one instant query at the store's `/api/v1/query` shows every point
/// of it: each series of the remote-write request, at each of its timestamps. Until then it stays in
/// the outbox; after ``patience`` it is sent again, which the store keeps once (the same points).
///
/// ```swift
/// let format = try RemoteWrite(instance: "deck-17")
/// let confirmation = try StoreConfirmation(store: "http://store:9090", timeout: .seconds(10))
/// let missing = confirmation.missingPoints(of: batch, in: format)
/// ```
public struct StoreConfirmation: Sendable, Hashable {
    /// The store's base URL; queries go to its `/api/v1/query`.
    public let store: URL
    /// How long after the relay's acknowledgement the store may take to show the batch.
    public let patience: Duration
    /// How long to wait between two queries.
    public let pollInterval: Duration
    /// How long one query may take.
    public let timeout: Duration
    /// The credentials, headers and TLS settings the store is asked with: the uploads' own.
    public let access: HTTPAccess

    /// Most of a query's answer kept: a batch of a few thousand points.
    static let answerLimit = 16 * 1024 * 1024

    /// Confirms at `store` (`http(s)://host:port`, with or without a path prefix), asking with
    /// `access` within `timeout` each time, waiting up to `patience` for a batch.
    ///
    /// - Throws: ``UploadError/invalidConfiguration(_:setting:)`` with ``UploadSetting/confirmURL``
    ///   when `store` is not an absolute `http` or `https` URL with a host, `patience` or
    ///   `pollInterval` is not positive, or `access` does not fit the URL (see ``HTTPAccess``).
    public init(
        store: String, timeout: Duration, patience: Duration = .seconds(30),
        pollInterval: Duration = .milliseconds(500),
        access: HTTPAccess = HTTPAccess()
    ) throws(UploadError) {
        guard let url = URL(string: store), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw .invalidConfiguration(
                "the store URL \"\(HTTPSink.masked(store))\" is not an http:// or https:// URL with a host",
                setting: .confirmURL)
        }
        guard url.user == nil, url.query == nil else {
            throw .invalidConfiguration(
                "the store URL \"\(HTTPSink.masked(store))\" holds a user or a query; give only its scheme, host and path",
                setting: .confirmURL)
        }
        guard patience > .zero, pollInterval > .zero, timeout > .zero else {
            throw .invalidConfiguration("the store's patience must be positive, not \(patience)", setting: .confirmURL)
        }
        do {
            try access.check(scheme: scheme, host: host)
        } catch .invalidConfiguration(let reason, _) {
            throw .invalidConfiguration("the store URL: \(reason)", setting: .confirmURL)
        } catch {
            throw error
        }
        self.store = url
        self.patience = patience
        self.pollInterval = pollInterval
        self.timeout = timeout
        self.access = access
    }

    /// The query that shows `batch`'s points: every series of `format`'s labels, as a range ending
    /// at the batch's last sample and reaching back to its first, at that instant.
    func query(for batch: Batch, in format: RemoteWrite) -> (expression: String, time: String) {
        let times = batch.samples.map(\.sample.takenAtMilliseconds)
        let first = times.min() ?? 0
        let last = times.max() ?? 0
        let matchers = format.commonLabels.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        let expression = "{\(matchers.joined(separator: ","))}[\(last - first + 1)ms]"
        let seconds = "\(last / 1000).\(String(1000 + last % 1000).dropFirst())"
        return (expression, seconds)
    }

    /// How many of `batch`'s points the store does not show yet, of how many; or why it could not be asked.
    public func missingPoints(of batch: Batch, in format: RemoteWrite) -> Result<(missing: Int, of: Int), UploadError> {
        let expected = format.request(for: batch).timeseries.map { series in
            (
                labels: Dictionary(uniqueKeysWithValues: series.labels.map { ($0.name, $0.value) }),
                times: Set(series.samples.map(\.timestamp))
            )
        }
        let total = expected.map(\.times.count).reduce(0, +)
        let (expression, time) = query(for: batch, in: format)
        let stored: [StoredSeries]
        switch ask(expression, at: time) {
        case .success(let series): stored = series
        case .failure(let error): return .failure(error)
        }
        var missing = 0
        for series in expected {
            // The store may add labels of its own (external labels); each of the batch's must match.
            let shown = stored.filter { found in series.labels.allSatisfy { found.labels[$0.key] == $0.value } }
            let times = Set(shown.flatMap(\.times))
            missing += series.times.subtracting(times).count
        }
        return .success((missing, total))
    }

    /// Waits until the store shows every point of `batch`, asking every ``pollInterval`` for up to
    /// ``patience``: `nil` once it does, else the error to record (the batch is sent again).
    func await(_ batch: Batch, in format: RemoteWrite) -> UploadError? {
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while true {
            let answer = missingPoints(of: batch, in: format)
            if case .success((0, _)) = answer { return nil }
            guard clock.now + pollInterval < deadline else {
                let why =
                    switch answer {
                    case .success(let count): "\(count.missing) of its \(count.of) points are not there"
                    case .failure(let error): "it cannot be asked: \(error.description.trimmingCharacters(in: ["."]))"
                    }
                return .unconfirmed(store: store.absoluteString, after: patience, why: why)
            }
            Thread.sleep(forTimeInterval: pollInterval / .seconds(1))
        }
    }

    /// One series of a query's answer.
    private struct StoredSeries {
        let labels: [String: String]
        let times: [Int64]
    }

    /// Asks the store for `expression` at `time` (seconds since 1970, to the millisecond).
    private func ask(_ expression: String, at time: String) -> Result<[StoredSeries], UploadError> {
        var parts = URLComponents(url: store.appendingPathComponent("api/v1/query"), resolvingAgainstBaseURL: false)
        parts?.queryItems = [URLQueryItem(name: "query", value: expression), URLQueryItem(name: "time", value: time)]
        // `+` is a space in a query's form encoding: a label value holding one must stay a plus.
        let encoded = parts?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        parts?.percentEncodedQuery = encoded
        guard let url = parts?.string else {
            return .failure(
                .connectionFailed(destination: store.absoluteString, reason: "the query URL cannot be made"))
        }
        var headers = access.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        do {
            if let authorization = try access.authorizationValue() {
                headers.append((name: "Authorization", value: authorization.value))
            }
        } catch {
            return .failure(error)
        }
        let request = CurlTransfer.Request(
            url: url, headers: headers, body: nil, timeout: timeout, access: access, bodyLimit: Self.answerLimit)
        let destination = store.absoluteString
        switch CurlTransfer.send(request) {
        case .failure(let failure):
            return .failure(HTTPSink.classify(failure, request: request, destination: destination, timeout: timeout))
        case .success(let response) where response.status != 200:
            let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            return .failure(.rejected(status: response.status, message: text))
        case .success(let response):
            // An answer that is not the query API's (a proxy's page, a wrong path) says what it was.
            let answer: PromQLAnswer
            do {
                answer = try JSONDecoder().decode(PromQLAnswer.self, from: response.body)
            } catch {
                let start = String(decoding: response.body.prefix(80), as: UTF8.self)
                return .failure(
                    .connectionFailed(
                        destination: destination, reason: "the answer is not Prometheus's query API's (\(start))"))
            }
            guard answer.status == "success", let result = answer.data?.result else {
                return .failure(
                    .connectionFailed(destination: destination, reason: "the query answered \(answer.status)"))
            }
            return .success(
                result.map { series in
                    StoredSeries(
                        labels: series.metric, times: (series.values ?? []).map(\.milliseconds))
                })
        }
    }

    /// A PromQL string literal of `value`.
    private static func quoted(_ value: String) -> String {
        "\""
            + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
