import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

import enum RunLoopKit.Nanoseconds

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delivers batches to a server: one `POST` per delivery, of the batch's JSON or, for a
/// time-series database, of a Prometheus remote-write request (``Format``), with the credentials,
/// headers and TLS settings of an ``HTTPAccess``.
///
/// The request carries `Idempotency-Key: <batch id>` (for JSON, the same id as the body's
/// `batch`), and the same batch is always the same body, so a server can store a batch once
/// however often it arrives. Any 2xx acknowledges; 408, 429 and 5xx (with their `Retry-After`),
/// timeouts, connection and TLS failures are retryable; any other status is a permanent
/// ``UploadError/rejected(status:message:)``; redirects are not followed. The completion
/// runs on one of async-http-client's event loop threads.
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
    private let client: HTTPClient
    private let tlsDiagnosis: TLSDiagnosis?

    /// Creates a sink posting to `endpoint` in `format`, with `access`'s credentials and TLS settings.
    ///
    /// - Throws: ``UploadError/invalidConfiguration(_:)`` when `endpoint` is not an absolute
    ///   `http` or `https` URL with a host, `timeout` is not positive, or `access` is unusable
    ///   (see ``HTTPAccess``): a reserved header, a certificate or key that cannot be loaded, TLS
    ///   settings on `http://`, credentials in clear text to a host off loopback.
    public init(endpoint: String, timeout: Duration, format: Format = .json, access: HTTPAccess = HTTPAccess())
        throws(UploadError)
    {
        let shown = Self.masked(endpoint)
        guard let url = URL(string: endpoint) else {
            throw .invalidConfiguration("the upload URL \"\(shown)\" is not a valid URL")
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidConfiguration("the upload URL \"\(shown)\" must start with http:// or https://")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalidConfiguration("the upload URL \"\(shown)\" has no host name")
        }
        guard url.password == nil else {
            throw .invalidConfiguration(
                "the upload URL holds a password; give the user name and a password file instead")
        }
        guard timeout > .zero else {
            throw .invalidConfiguration("the upload timeout must be positive, not \(timeout)")
        }
        try access.check(scheme: scheme, host: host)
        self.endpoint = url
        self.timeout = timeout
        self.format = format
        self.access = access
        let tls = try TLSDiagnosis.configuration(access)
        tlsDiagnosis =
            scheme == "https"
            ? TLSDiagnosis(host: host, port: url.port ?? 443, tls: tls, timeout: Self.timeAmount(timeout)) : nil
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: Self.timeAmount(timeout), read: Self.timeAmount(timeout)))
        // A batch every few minutes gains nothing from a kept connection that the server may
        // have closed in between; a connection that fails fails the delivery at once, with its
        // own error (refused, TLS), which the pipeline's backoff retries.
        configuration.connectionPool = .init(idleTimeout: .seconds(1))
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        client.shutdown { _ in }
    }

    /// `endpoint` with the password of its user part, if any, masked as `***`.
    static func masked(_ endpoint: String) -> String {
        guard var parts = URLComponents(string: endpoint), parts.password != nil else { return endpoint }
        parts.password = "***"
        return parts.string ?? "(a URL with a password)"
    }

    /// The endpoint URL.
    public var destination: String { endpoint.absoluteString }

    /// Posts `batch`; the completion gets the ack or the classified failure.
    public func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
        let request: HTTPClient.Request
        do {
            request = try makeRequest(batch)
        } catch {
            DispatchQueue.global().async { completion(.failure(error)) }
            return
        }
        let batchID = batch.id
        let destination = destination
        let format = format
        let timeout = timeout
        let diagnosis = tlsDiagnosis
        client.execute(request: request, deadline: .now() + Self.timeAmount(timeout)).whenComplete { result in
            switch result {
            case .success(let response):
                let body = response.body.map { Data($0.readableBytesView) } ?? Data()
                let result = Self.classify(response, body: body, batchID: batchID, destination: destination)
                guard case .remoteWrite(let remoteWrite) = format else { return completion(result) }
                completion(remoteWrite.verdict(result, for: batch, destination: destination))
            case .failure(let error):
                if let diagnosis, TLSDiagnosis.isVerificationFailure(error) {
                    diagnosis.reason { completion(.failure(.tlsFailed(destination: destination, reason: $0))) }
                    return
                }
                let failure = Self.classify(error, destination: destination, timeout: timeout)
                guard let diagnosis, case .remoteConnectionClosed? = error as? HTTPClientError else {
                    return completion(.failure(failure))
                }
                diagnosis.alertAfterHandshake { reason in
                    completion(.failure(reason.map { .tlsFailed(destination: destination, reason: $0) } ?? failure))
                }
            }
        }
    }

    /// The request for `batch`: its body, the format's headers, the access's headers and
    /// `Authorization` (its file read now).
    private func makeRequest(_ batch: Batch) throws(UploadError) -> HTTPClient.Request {
        var headers = HTTPHeaders()
        for (name, value) in access.headers.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        if let authorization = try access.authorizationValue() {
            headers.add(name: "Authorization", value: authorization.value)
        }
        let body: Data
        switch format {
        case .json:
            body = try BatchPayload.encode(batch)
            headers.add(name: "Content-Type", value: "application/json")
        case .remoteWrite(let remoteWrite):
            body = try remoteWrite.body(for: batch)
            for (name, value) in RemoteWrite.headers { headers.add(name: name, value: value) }
        }
        headers.add(name: "Idempotency-Key", value: batch.key)
        do {
            return try HTTPClient.Request(url: endpoint, method: .POST, headers: headers, body: .data(body))
        } catch {
            throw .invalidConfiguration("the upload URL \"\(destination)\" cannot be requested: \(error)")
        }
    }

    /// `duration` as NIO's time amount, saturating instead of overflowing.
    private static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.nanoseconds)
    }

    /// 2xx acknowledges; 408, 429 and 5xx are retryable; anything else rejects the batch
    /// (redirects are not followed).
    ///
    /// A redirect is refused rather than followed: a `POST` redirected with 301, 302 or 303
    /// becomes a `GET`, whose 2xx would acknowledge a batch the server never stored.
    static func classify(_ response: HTTPClient.Response, body: Data, batchID: UUID, destination: String) -> Result<
        Ack, UploadError
    > {
        let status = Int(response.status.code)
        switch status {
        case 200...299:
            return .success(Ack(batchID: batchID, destination: destination, statusCode: status))
        case 408, 429, 500...599:
            let retryAfter = response.headers.first(name: "Retry-After").flatMap(RetryAfter.init(headerValue:))
            return .failure(.serverUnavailable(status: status, retryAfter: retryAfter))
        case 300...399:
            let location = response.headers.first(name: "Location") ?? "an unnamed location"
            return .failure(
                .rejected(status: status, message: "redirected to \(location); set the upload URL to the final address")
            )
        default:
            let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(.rejected(status: status, message: text))
        }
    }

    /// Transport errors: a timeout is ``UploadError/timedOut(destination:after:)``, a failed
    /// handshake ``UploadError/tlsFailed(destination:reason:)``, the rest (refused, unknown host,
    /// reset) ``UploadError/connectionFailed(destination:reason:)``.
    static func classify(_ error: any Error, destination: String, timeout: Duration) -> UploadError {
        if let reason = TLSDiagnosis.reason(for: error) {
            return .tlsFailed(destination: destination, reason: reason)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .tlsHandshakeTimeout, .writeTimeout:
                return .timedOut(destination: destination, after: timeout)
            case .remoteConnectionClosed:
                return .connectionFailed(
                    destination: destination, reason: "the server closed the connection without an answer")
            default:
                return .connectionFailed(destination: destination, reason: error.description)
            }
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil, error.connectionErrors.isEmpty {
                return .connectionFailed(destination: destination, reason: "unknown host")
            }
            let refused = error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
            if refused { return .connectionFailed(destination: destination, reason: "connection refused") }
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return .connectionFailed(destination: destination, reason: "connection refused")
            case ECONNRESET, EPIPE:
                return .connectionFailed(destination: destination, reason: "the connection was lost")
            default: break
            }
        }
        if case .connectTimeout? = error as? ChannelError {
            return .timedOut(destination: destination, after: timeout)
        }
        return .connectionFailed(destination: destination, reason: String(describing: error))
    }
}
