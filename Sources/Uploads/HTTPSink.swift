import CCurl
import Foundation

/// Delivers batches to a server: one `POST` per delivery, of the batch's JSON or, for a
/// time-series database, of a Prometheus remote-write request (``Format``), with the credentials,
/// headers and TLS settings of an ``HTTPAccess``.
///
/// The request carries `Idempotency-Key: <batch id>` (for JSON, the same id as the body's
/// `batch`), and the same batch is always the same body, so a server can store a batch once
/// however often it arrives. Any 2xx acknowledges; 408, 429 and 5xx (with their `Retry-After`),
/// timeouts, connection and TLS failures are retryable; any other status is a permanent
/// ``UploadError/rejected(status:message:)``; redirects are not followed. Each delivery is one
/// libcurl transfer on a thread of its own (``CurlTransfer``), where the completion runs.
///
/// Written through a relay, a remote-write sink may read each batch back from the store
/// (``confirmation``): the relay's 2xx then counts only once the store shows every point. A batch
/// that failed twice then goes to the ``fallback``, the store's own receiver, if one is given.
///
/// ```swift
/// let sink = try HTTPSink(endpoint: "https://example.org/samples", timeout: .seconds(20))
/// sink.deliver(batch) { result in loop.perform { handle(result) } }
/// ```
public final class HTTPSink: BatchSink {
    /// What a request's body is.
    public enum Format: Sendable, Hashable {
        /// ``BatchPayload``'s JSON, `Content-Type: application/json`: the loopback collector's form.
        case json
        /// One remote-write 1.0 request per batch (Prometheus, VictoriaMetrics, Mimir, Thanos, Cortex).
        case remoteWrite(RemoteWrite)
    }

    /// The URL batches are posted to.
    public let endpoint: URL
    /// What the bodies are.
    public let format: Format
    /// How long a request may take in all before it fails with
    /// ``UploadError/timedOut(destination:after:)``; exact, not rounded to seconds.
    public let timeout: Duration
    /// The credentials, headers and TLS settings.
    public let access: HTTPAccess
    /// Where a remote-written batch is read back before it counts as delivered; `nil` trusts the
    /// receiver's acknowledgement.
    public let confirmation: StoreConfirmation?
    /// Where a batch goes once ``fallbackAfter`` deliveries of it have failed: the store itself,
    /// past a relay that cannot take or forward it (down, or Prometheus's agent, which forwards no
    /// sample older than its own start); `nil` for none.
    public let fallback: URL?

    /// The failed deliveries of a batch after which it goes to ``fallback``.
    public static let fallbackAfter = 2

    /// Creates a sink posting to `endpoint` in `format`, with `access`'s credentials and TLS settings.
    ///
    /// - Throws: ``UploadError/invalidConfiguration(_:setting:)``, naming the setting, when
    ///   `endpoint` is not an absolute `http` or `https` URL with a host, `timeout` is not
    ///   positive, or `access` is unusable (see ``HTTPAccess``): a reserved header, a certificate
    ///   or key that cannot be loaded, TLS settings on `http://`, credentials in clear text to a
    ///   host off loopback; or a `confirmation` for a format that is not remote write.
    public init(
        endpoint: String, timeout: Duration, format: Format = .json, access: HTTPAccess = HTTPAccess(),
        confirmation: StoreConfirmation? = nil, fallback: String? = nil
    ) throws(UploadError) {
        let url = try Self.checked(endpoint, access: access, setting: .url, as: "upload URL")
        guard timeout > .zero else {
            throw .invalidConfiguration("the upload timeout must be positive, not \(timeout)", setting: .timeout)
        }
        self.fallback = try fallback.map { address throws(UploadError) in
            try Self.checked(address, access: access, setting: .fallbackURL, as: "fallback URL")
        }
        if confirmation != nil, case .json = format {
            throw .invalidConfiguration(
                "batches are read back from the store by PromQL, so the upload URL must be a Prometheus remote-write "
                    + "URL (prometheus+http(s)://…)", setting: .confirmURL)
        }
        self.endpoint = url
        self.confirmation = confirmation
        self.timeout = timeout
        self.format = format
        self.access = access
        try TLSDiagnosis.checkFiles(access)
    }

    /// `endpoint` as a URL, checked with `access`: an absolute `http` or `https` URL with a host and
    /// no password, to which `access`'s credentials and TLS settings may go.
    private static func checked(_ endpoint: String, access: HTTPAccess, setting: UploadSetting, as name: String)
        throws(UploadError) -> URL
    {
        let shown = masked(endpoint)
        guard let url = URL(string: endpoint) else {
            throw .invalidConfiguration("the \(name) \"\(shown)\" is not a valid URL", setting: setting)
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidConfiguration(
                "the \(name) \"\(shown)\" must start with http:// or https://", setting: setting)
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalidConfiguration("the \(name) \"\(shown)\" has no host name", setting: setting)
        }
        guard url.password == nil else {
            throw .invalidConfiguration(
                "the \(name) holds a password; give the user name and a password file instead", setting: setting)
        }
        do {
            try access.check(scheme: scheme, host: host)
        } catch .invalidConfiguration(let reason, let named) where setting != .url && named == .url {
            throw .invalidConfiguration("the \(name): \(reason)", setting: setting)
        }
        return url
    }

    /// `endpoint` with the password of its user part, if any, masked as `***`.
    static func masked(_ endpoint: String) -> String {
        guard var parts = URLComponents(string: endpoint), parts.password != nil else { return endpoint }
        parts.password = "***"
        return parts.string ?? "(a URL with a password)"
    }

    /// The endpoint URL.
    public var destination: String { endpoint.absoluteString }

    /// Where `batch` goes now: the endpoint, or after ``fallbackAfter`` failed deliveries the fallback.
    public func target(of batch: Batch) -> URL {
        guard let fallback, batch.failedAttempts >= Self.fallbackAfter else { return endpoint }
        return fallback
    }

    /// Posts `batch`; the completion gets the ack or the classified failure.
    public func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
        let request: CurlTransfer.Request
        do {
            request = try makeRequest(batch)
        } catch {
            DispatchQueue.global().async { completion(.failure(error)) }
            return
        }
        let destination = request.url
        let format = format
        let timeout = timeout
        let confirmation = confirmation
        Thread.detachNewThread {
            let result: Result<Ack, UploadError>
            switch CurlTransfer.send(request) {
            case .success(let response):
                result = Self.classify(response, batchID: batch.id, destination: destination)
            case .failure(let failure):
                result = .failure(Self.classify(failure, request: request, destination: destination, timeout: timeout))
            }
            guard case .remoteWrite(let remoteWrite) = format else { return completion(result) }
            let verdict = remoteWrite.verdict(result, for: batch, destination: destination)
            guard case .success = verdict, let confirmation else { return completion(verdict) }
            completion(confirmation.await(batch, in: remoteWrite).map { .failure($0) } ?? verdict)
        }
    }

    /// The request for `batch`: its body, the format's headers, the access's headers and
    /// `Authorization` (its file read now).
    private func makeRequest(_ batch: Batch) throws(UploadError) -> CurlTransfer.Request {
        var headers = access.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        if let authorization = try access.authorizationValue() {
            headers.append((name: "Authorization", value: authorization.value))
        }
        let body: Data
        switch format {
        case .json:
            body = try BatchPayload.encode(batch)
            headers.append((name: "Content-Type", value: "application/json"))
        case .remoteWrite(let remoteWrite):
            body = try remoteWrite.body(for: batch)
            headers += RemoteWrite.headers.map { (name: $0.0, value: $0.1) }
        }
        headers.append((name: "Idempotency-Key", value: batch.key))
        return CurlTransfer.Request(
            url: target(of: batch).absoluteString, headers: headers, body: body, timeout: timeout, access: access)
    }

    /// 2xx acknowledges; 408, 429 and 5xx are retryable; anything else rejects the batch
    /// (redirects are not followed).
    ///
    /// A redirect is refused rather than followed: a `POST` redirected with 301, 302 or 303
    /// becomes a `GET`, whose 2xx would acknowledge a batch the server never stored.
    static func classify(_ response: CurlTransfer.Response, batchID: UUID, destination: String) -> Result<
        Ack, UploadError
    > {
        let status = response.status
        switch status {
        case 200...299:
            return .success(Ack(batchID: batchID, destination: destination, statusCode: status))
        case 408, 429, 500...599:
            let retryAfter = response.headers["retry-after"].flatMap(RetryAfter.init(headerValue:))
            return .failure(.serverUnavailable(status: status, retryAfter: retryAfter))
        case 300...399:
            let location = response.headers["location"] ?? "an unnamed location"
            return .failure(
                .rejected(status: status, message: "redirected to \(location); set the upload URL to the final address")
            )
        default:
            let text = String(decoding: response.body.prefix(200), as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            return .failure(.rejected(status: status, message: text))
        }
    }

    /// Transport errors: a timeout is ``UploadError/timedOut(destination:after:)``, a failed
    /// handshake ``UploadError/tlsFailed(destination:reason:)``, the rest (refused, unknown host,
    /// reset) ``UploadError/connectionFailed(destination:reason:)``.
    static func classify(
        _ failure: CurlTransfer.Failure, request: CurlTransfer.Request, destination: String, timeout: Duration
    ) -> UploadError {
        if let reason = TLSDiagnosis.reason(for: failure, request: request) {
            return .tlsFailed(destination: destination, reason: reason)
        }
        let reason: String
        switch failure.code {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(destination: destination, after: timeout)
        case CURLE_COULDNT_RESOLVE_HOST:
            reason = "unknown host"
        case CURLE_COULDNT_CONNECT where failure.systemError == ECONNREFUSED:
            reason = "connection refused"
        case CURLE_GOT_NOTHING:
            reason = "the server closed the connection without an answer"
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            reason =
                [ECONNRESET, EPIPE].contains(failure.systemError)
                ? "the connection was lost" : "the connection was lost (\(failure.message))"
        default:
            reason = failure.message
        }
        return .connectionFailed(destination: destination, reason: reason)
    }
}
