import Foundation

import enum RunLoopKit.Nanoseconds

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Delivers batches to a server: one `POST` per delivery, of the batch's JSON or, for a
/// time-series database, of a Prometheus remote-write request (``Format``).
///
/// The request carries `Idempotency-Key: <batch id>` (for JSON, the same id as the body's
/// `batch`), and the same batch is always the same body, so a server can store a batch once
/// however often it arrives. Any 2xx acknowledges; 408, 429 and 5xx (with their `Retry-After`), timeouts and
/// connection failures are retryable; any other status is a permanent
/// ``UploadError/rejected(status:message:)``; redirects are not followed. The completion
/// runs on a URLSession thread.
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
    /// How long a request may take in all before it is cancelled and fails with
    /// ``UploadError/timedOut(destination:after:)``; exact, not rounded to seconds.
    public let timeout: Duration
    private let session: URLSession

    /// Creates a sink posting to `endpoint` in `format`.
    ///
    /// - Throws: ``UploadError/invalidConfiguration(_:)`` when `endpoint` is not an absolute
    ///   `http` or `https` URL with a host, or `timeout` is not positive.
    public init(endpoint: String, timeout: Duration, format: Format = .json) throws(UploadError) {
        guard let url = URL(string: endpoint) else {
            throw .invalidConfiguration("the upload URL \"\(endpoint)\" is not a valid URL")
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidConfiguration("the upload URL \"\(endpoint)\" must start with http:// or https://")
        }
        guard let host = url.host, !host.isEmpty else {
            throw .invalidConfiguration("the upload URL \"\(endpoint)\" has no host name")
        }
        guard timeout > .zero else {
            throw .invalidConfiguration("the upload timeout must be positive, not \(timeout)")
        }
        self.endpoint = url
        self.timeout = timeout
        self.format = format
        let configuration = URLSessionConfiguration.ephemeral
        // Our own deadline enforces `timeout` (see RequestDeadline); Foundation's, in whole
        // seconds, is set at least a second later so it never fires first.
        let backstop = TimeInterval(timeout.components.seconds) + 2
        configuration.timeoutIntervalForRequest = backstop
        configuration.timeoutIntervalForResource = backstop
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// The endpoint URL.
    public var destination: String { endpoint.absoluteString }

    /// Posts `batch`; the completion gets the ack or the classified failure.
    public func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        do {
            switch format {
            case .json:
                request.httpBody = try BatchPayload.encode(batch)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            case .remoteWrite(let remoteWrite):
                request.httpBody = try remoteWrite.body(for: batch)
                for (name, value) in RemoteWrite.headers { request.setValue(value, forHTTPHeaderField: name) }
            }
        } catch {
            DispatchQueue.global().async { completion(.failure(error)) }
            return
        }
        request.setValue(batch.key, forHTTPHeaderField: "Idempotency-Key")
        // One connection per POST. URLSession on Linux cannot rewind a body: when libcurl re-sends a
        // request whose kept-alive connection the server had closed, Foundation's seek callback
        // leaves the body consumed, and the retry goes out with its Content-Length and no body,
        // stalling until the timeout. A batch every few minutes gains nothing from keeping the
        // connection, so none is reused, and a dropped connection is a plain retryable failure.
        request.setValue("close", forHTTPHeaderField: "Connection")
        request.timeoutInterval = session.configuration.timeoutIntervalForRequest
        let batchID = batch.id
        let destination = destination
        let format = format
        let timeout = timeout
        let deadline = RequestDeadline()
        let task = session.dataTask(with: request) { data, response, error in
            if deadline.finish() {
                completion(.failure(.timedOut(destination: destination, after: timeout)))
                return
            }
            if let error {
                completion(.failure(Self.classify(error, destination: destination, timeout: timeout)))
                return
            }
            guard let response = response as? HTTPURLResponse else {
                completion(.failure(.connectionFailed(destination: destination, reason: "the answer was not HTTP")))
                return
            }
            let result = Self.classify(response, body: data ?? Data(), batchID: batchID, destination: destination)
            guard case .remoteWrite(let remoteWrite) = format else { return completion(result) }
            completion(remoteWrite.verdict(result, for: batch, destination: destination))
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.dispatchInterval(timeout)) {
            if deadline.expire() { task.cancel() }
        }
        task.resume()
    }

    /// `duration` for a dispatch deadline, in nanoseconds; one too long to count is never.
    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let nanoseconds = duration.nanoseconds
        return nanoseconds == .max ? .never : .nanoseconds(Int(nanoseconds))
    }

    /// 2xx acknowledges; 408, 429 and 5xx are retryable; anything else rejects the batch
    /// (redirects are not followed: see ``RedirectRefusal``).
    static func classify(_ response: HTTPURLResponse, body: Data, batchID: UUID, destination: String) -> Result<
        Ack, UploadError
    > {
        let status = response.statusCode
        switch status {
        case 200...299:
            return .success(Ack(batchID: batchID, destination: destination, statusCode: status))
        case 408, 429, 500...599:
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap(RetryAfter.init(headerValue:))
            return .failure(.serverUnavailable(status: status, retryAfter: retryAfter))
        case 300...399:
            let location = response.value(forHTTPHeaderField: "Location") ?? "an unnamed location"
            return .failure(
                .rejected(status: status, message: "redirected to \(location); set the upload URL to the final address")
            )
        default:
            let text = String(decoding: body.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(.rejected(status: status, message: text))
        }
    }

    /// Transport errors: a timeout is ``UploadError/timedOut(destination:after:)``, the rest
    /// (refused, unknown host, reset) ``UploadError/connectionFailed(destination:reason:)``.
    static func classify(_ error: any Error, destination: String, timeout: Duration) -> UploadError {
        guard let error = error as? URLError else {
            return .connectionFailed(destination: destination, reason: error.localizedDescription)
        }
        switch error.code {
        case .timedOut:
            return .timedOut(destination: destination, after: timeout)
        case .cannotConnectToHost:
            return .connectionFailed(destination: destination, reason: "connection refused")
        case .cannotFindHost, .dnsLookupFailed:
            return .connectionFailed(destination: destination, reason: "unknown host")
        case .networkConnectionLost:
            return .connectionFailed(destination: destination, reason: "the connection was lost")
        case .badServerResponse:
            return .connectionFailed(
                destination: destination, reason: "the server closed the connection without an answer")
        case .notConnectedToInternet:
            return .connectionFailed(destination: destination, reason: "no network")
        default:
            return .connectionFailed(destination: destination, reason: error.localizedDescription)
        }
    }
}
