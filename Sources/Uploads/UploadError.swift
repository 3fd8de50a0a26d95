import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a ``BatchSink`` could not deliver a batch, and whether trying again can help.
///
/// Retryable: refused or lost connections, timeouts, TLS failures, HTTP 408, 429 and 5xx, a
/// local write that failed (disk full). Permanent: any other HTTP status (the server rejected
/// the batch; it stays in the outbox with this error shown), a credentials file that cannot be
/// read, and a sink set up with a bad URL. A refusal of the credentials (401, 403, an unreadable
/// file) is about the sink, not the batch: ``refusesCredentials``.
public enum UploadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sink's settings are unusable: an invalid URL, a timeout that is not positive, a
    /// reserved header, a TLS file that cannot be read; `setting` says which, when one is to blame.
    case invalidConfiguration(String, setting: UploadSetting? = nil)
    /// No connection could be made or it broke: refused, host unknown, reset.
    case connectionFailed(destination: String, reason: String)
    /// The TLS handshake failed: an untrusted or expired server certificate, a certificate for
    /// another host name, a client certificate the server refused.
    case tlsFailed(destination: String, reason: String)
    /// A password or token file could not be read (or is empty); nothing was sent.
    case credentialsUnreadable(path: String, reason: String)
    /// No answer within the configured timeout.
    case timedOut(destination: String, after: Duration)
    /// The server is busy or failing (408, 429, 5xx), possibly saying when to come back.
    case serverUnavailable(status: Int, retryAfter: RetryAfter?)
    /// The server refused the batch (any other non-2xx status), with the start of its answer.
    case rejected(status: Int, message: String)
    /// A local file could not be written.
    case writeFailed(path: String, reason: String)
    /// The batch could not be encoded for its sink (JSON, or a remote-write request).
    case encodingFailed(String)
    /// The relay acknowledged the batch, but the store did not show all of it within `after`
    /// (``StoreConfirmation``): `why` says what it showed, or why it could not be asked.
    case unconfirmed(store: String, after: Duration, why: String)

    /// Whether delivering the same batch again later can succeed.
    public var isRetryable: Bool {
        switch self {
        case .connectionFailed, .timedOut, .serverUnavailable, .writeFailed, .tlsFailed, .unconfirmed: true
        case .invalidConfiguration, .rejected, .encodingFailed, .credentialsUnreadable: false
        }
    }

    /// Whether the server refused the credentials (401, 403) or they could not be read: every
    /// batch would meet the same answer until they are fixed, so the batch is not set aside but
    /// tried again, first, at the next upload.
    public var refusesCredentials: Bool {
        switch self {
        case .rejected(401, _), .rejected(403, _), .credentialsUnreadable: true
        default: false
        }
    }

    /// Whether the server refused the batch because its samples are too old for it: Prometheus
    /// answers 400 `out of bounds` (or `too old sample` with an out-of-order window) for samples
    /// before what its head block accepts, as after a long outage.
    public var refusesOldSamples: Bool {
        guard case .rejected(400, let message) = self else { return false }
        return message.contains("out of bounds") || message.contains("too old")
    }

    /// The server's `Retry-After`, when it sent one.
    public var retryAfter: RetryAfter? {
        if case .serverUnavailable(_, let retryAfter) = self { retryAfter } else { nil }
    }

    /// A sentence for the user: what failed and why.
    public var description: String {
        switch self {
        case .invalidConfiguration(let reason, _):
            "Upload settings are invalid: \(reason)."
        case .connectionFailed(let destination, let reason):
            "Cannot reach \(destination): \(reason)."
        case .tlsFailed(let destination, let reason):
            "Cannot make a secure connection to \(destination): \(reason). The batch stays in the outbox."
        case .credentialsUnreadable(let path, let reason):
            "Cannot read the credentials file \(path): \(reason). The batch stays in the outbox."
        case .timedOut(let destination, let after):
            "\(destination) did not answer within \(after)."
        case .serverUnavailable(let status, let retryAfter):
            "The server answered \(status) \(Self.statusName(status))"
                + (retryAfter.map { ", asking to retry \(Self.describe($0))" } ?? "") + "."
        case .rejected(let status, let message):
            "The server rejected the batch with \(status) \(Self.statusName(status))"
                + (message.isEmpty ? "" : ": \(message)") + ". It stays in the outbox."
                + (refusesCredentials
                    ? " Check the password or token file; the next attempt reads it again." : "")
                + (refusesOldSamples
                    ? " The samples are older than the database accepts; Prometheus takes them with an out-of-order "
                        + "window (out_of_order_time_window in prometheus.yml)."
                    : "")
        case .writeFailed(let path, let reason):
            "Cannot write \(path): \(reason)."
        case .encodingFailed(let reason):
            "Cannot encode the batch: \(reason)."
        case .unconfirmed(let store, let after, let why):
            "The relay took the batch, but \(after) later the store at \(store) does not show it all: \(why). "
                + "It is sent again."
        }
    }

    private static func statusName(_ status: Int) -> String {
        HTTPURLResponse.localizedString(forStatusCode: status)
    }

    private static func describe(_ retryAfter: RetryAfter) -> String {
        switch retryAfter {
        case .delay(let duration): "after \(duration)"
        case .date(let date): "at \(date)"
        }
    }
}

/// The setting of an ``HTTPSink`` that ``UploadError/invalidConfiguration(_:setting:)`` is about,
/// so that a program can name the option or config field that gave it.
public enum UploadSetting: String, Sendable, Hashable, CaseIterable {
    /// The endpoint URL.
    case url
    /// How long a request may take.
    case timeout
    /// ``HTTPAccess/headers``.
    case headers
    /// ``HTTPAccess/caFile``.
    case caFile
    /// ``HTTPAccess/certFile``.
    case certFile
    /// ``HTTPAccess/keyFile``.
    case keyFile
    /// ``HTTPAccess/insecureSkipVerify``.
    case insecureSkipVerify
    /// ``StoreConfirmation/store``: where delivered batches are read back.
    case confirmURL
    /// ``HTTPSink/fallback``: where a batch goes after failed deliveries.
    case fallbackURL
}
