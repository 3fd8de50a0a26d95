import AppPlatform
import Foundation

/// How an ``HTTPSink`` proves who it is and whom it trusts, as Prometheus's `remote_write` says it:
/// `basic_auth` with a password file, `authorization` with a credentials file, extra `headers`
/// (a tenant such as `X-Scope-OrgID`), and `tls_config` (a CA file, a client certificate and
/// key, `insecure_skip_verify`).
///
/// Secrets are read from their files at each delivery, so a fixed file is used by the next
/// attempt without a restart; a token taken from the environment is a ``Secret``, which prints
/// masked.
///
/// ```swift
/// var access = HTTPAccess()
/// access.authorization = .basic(username: "1234", passwordFile: "/etc/timerdeck/password")
/// access.headers = ["X-Scope-OrgID": "team-a"]
/// access.caFile = "/etc/timerdeck/ca.pem"
/// let sink = try HTTPSink(endpoint: "https://db.example/api/v1/push", timeout: .seconds(10), access: access)
/// ```
public struct HTTPAccess: Sendable, Hashable {
    /// What the `Authorization` header carries.
    public enum Authorization: Sendable, Hashable {
        /// No `Authorization` header.
        case none
        /// `Basic`, with the password read from `passwordFile` at each delivery.
        case basic(username: String, passwordFile: String)
        /// `Bearer`, with the token read from `tokenFile` at each delivery.
        case bearerFile(String)
        /// `Bearer`, with a token given once (taken from an environment variable).
        case bearer(Secret)
    }

    /// A secret value that never shows: its description, debug description and mirror are a mask.
    public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The secret itself, for the request only.
        let value: String

        /// Wraps `value`.
        public init(_ value: String) { self.value = value }

        /// A mask, never the value.
        public var description: String { "<hidden>" }
        /// The same mask.
        public var debugDescription: String { description }
        /// No children: a dump shows no value.
        public var customMirror: Mirror { Mirror(self, children: [:]) }
    }

    /// The `Authorization` header.
    public var authorization = Authorization.none
    /// Further headers on every request (e.g. `X-Scope-OrgID` for Mimir, Cortex or Loki tenants).
    public var headers: [String: String] = [:]
    /// A PEM file of the certificate authorities to trust instead of the system's.
    public var caFile: String?
    /// A PEM client certificate, presented with ``keyFile`` when the server asks for one.
    public var certFile: String?
    /// The PEM private key of ``certFile``.
    public var keyFile: String?
    /// Accepts any server certificate (never for production: anyone on the path can read the secrets).
    public var insecureSkipVerify = false
    /// Sends credentials over plain `http://` to a host that is not on loopback.
    public var allowPlainHTTP = false

    /// No credentials, the system's trust store.
    public init() {}

    /// Whether anything secret goes with a request: an `Authorization` header or a client key.
    public var sendsCredentials: Bool { authorization != .none || keyFile != nil }

    /// Headers a configuration may not set: the sink writes them itself.
    static let reservedHeaders: Set<String> = [
        "authorization", "content-type", "content-encoding", "content-length", "host", "idempotency-key",
        "user-agent", "x-prometheus-remote-write-version", "connection",
    ]

    /// Whether the header `name` (in any case) is one the sink writes itself, which ``headers``
    /// may not set.
    public static func isReserved(_ name: String) -> Bool { reservedHeaders.contains(name.lowercased()) }

    /// Why the reserved header `name` is refused, in the words of a message's clause.
    public static func reservedHeaderProblem(_ name: String) -> String {
        "the header \"\(name)\" is set by the uploads themselves; give credentials as a password or token file"
    }

    /// The settings' own mistakes, before any request: a reserved header, a certificate without
    /// its key, a client key or TLS setting on a plain `http://` URL, credentials in clear text to
    /// another host unless ``allowPlainHTTP``.
    func check(scheme: String, host: String) throws(UploadError) {
        if let name = headers.keys.sorted().first(where: Self.isReserved) {
            throw .invalidConfiguration(Self.reservedHeaderProblem(name), setting: .headers)
        }
        if (certFile == nil) != (keyFile == nil) {
            throw .invalidConfiguration(
                "a client certificate needs both its certificate file and its key file",
                setting: certFile == nil ? .keyFile : .certFile)
        }
        guard scheme == "http" else { return }
        let tlsSetting: UploadSetting? =
            caFile != nil ? .caFile : certFile != nil ? .certFile : insecureSkipVerify ? .insecureSkipVerify : nil
        if let tlsSetting {
            throw .invalidConfiguration("TLS settings need an https:// upload URL", setting: tlsSetting)
        }
        if sendsCredentials && !allowPlainHTTP && !Self.isLoopback(host) {
            throw .invalidConfiguration(
                "credentials would cross the network unencrypted to \(host); use an https:// URL "
                    + "(or, on a network you trust, allow plain HTTP: uploads.allow_plain_http = true or --upload-allow-plain-http)",
                setting: .url)
        }
    }

    /// `localhost`, 127.0.0.0/8 or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name.hasPrefix("127.")
    }

    /// The `Authorization` header's value now, reading its file; `nil` for none.
    ///
    /// - Throws: ``UploadError/credentialsUnreadable(path:reason:)`` when the file cannot be read or is empty.
    func authorizationValue() throws(UploadError) -> Secret? {
        switch authorization {
        case .none:
            return nil
        case .basic(let username, let passwordFile):
            let password = try Self.read(passwordFile)
            return Secret("Basic " + Data("\(username):\(password)".utf8).base64EncodedString())
        case .bearerFile(let tokenFile):
            return Secret("Bearer " + (try Self.read(tokenFile)))
        case .bearer(let token):
            return Secret("Bearer " + token.value)
        }
    }

    /// A secret file's text without its surrounding white space (an editor's final newline).
    private static func read(_ path: String) throws(UploadError) -> String {
        let text: String
        do {
            text = String(decoding: try FileIO.read(atPath: path), as: UTF8.self)
        } catch {
            throw .credentialsUnreadable(path: path, reason: error.reason)
        }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else { throw .credentialsUnreadable(path: path, reason: "it is empty") }
        return secret
    }
}
