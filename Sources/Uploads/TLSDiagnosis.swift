import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// The TLS side of an ``HTTPSink``: the client configuration an ``HTTPAccess`` asks for, and
/// failed handshakes in words.
///
/// BoringSSL says only `CERTIFICATE_VERIFY_FAILED` when the server's certificate is refused, so
/// after such a failure one more handshake fetches the certificate without trusting it, to say
/// whether it expired, is not valid yet, or is signed by an authority that is not trusted.
struct TLSDiagnosis: Sendable {
    /// The server, as the upload URL names it.
    let host: String
    /// Its port.
    let port: Int
    /// The sink's TLS configuration (the same trust roots and client certificate).
    let tls: TLSConfiguration
    /// The sink's timeout: the bound of the connection and of the whole handshake.
    let timeout: TimeAmount

    /// `access`'s trust roots, client certificate and verification for a client.
    ///
    /// - Throws: ``UploadError/invalidConfiguration(_:)`` naming the file that cannot be loaded.
    static func configuration(_ access: HTTPAccess) throws(UploadError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let caFile = access.caFile {
            tls.trustRoots = .certificates(try load("CA file", caFile) { try NIOSSLCertificate.fromPEMFile($0) })
        }
        if let certFile = access.certFile, let keyFile = access.keyFile {
            tls.certificateChain = try load("client certificate file", certFile) {
                try NIOSSLCertificate.fromPEMFile($0)
            }.map { .certificate($0) }
            tls.privateKey = .privateKey(
                try load("client key file", keyFile) { try NIOSSLPrivateKey(file: $0, format: .pem) })
        }
        tls.certificateVerification = access.insecureSkipVerify ? .none : .fullVerification
        return tls
    }

    /// `loader`'s result for `path`, or an error naming the `role` of the file and why it failed.
    private static func load<Value>(_ role: String, _ path: String, _ loader: (String) throws -> Value)
        throws(UploadError) -> Value
    {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .invalidConfiguration("the \(role) \(path) cannot be read")
        }
        do {
            return try loader(path)
        } catch {
            throw .invalidConfiguration("the \(role) \(path) is not a PEM file of the right kind (\(error))")
        }
    }

    /// Whether `error` is BoringSSL refusing the server's certificate chain.
    static func isVerificationFailure(_ error: any Error) -> Bool {
        guard case .handshakeFailed(let reason)? = error as? NIOSSLError else { return false }
        return "\(reason)".contains("CERTIFICATE_VERIFY_FAILED")
    }

    /// A failed handshake in words, or `nil` when `error` is not about TLS.
    static func reason(for error: any Error) -> String? {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "the server's certificate is for another host name (\(error)); "
                + "use a name the certificate lists in the upload URL"
        }
        let text: String
        if case .handshakeFailed(let reason)? = error as? NIOSSLError {
            text = "\(reason)"
        } else if let error = error as? BoringSSLError {
            // TLS 1.3 tells of a refused client certificate after the handshake, at the first read.
            text = "\(error)"
        } else if let error = error as? NIOSSLError {
            return "TLS failed: \(error)"
        } else {
            return nil
        }
        let phrases: [(String, String)] = [
            ("CERTIFICATE_VERIFY_FAILED", "the server's certificate could not be verified"),
            ("CERTIFICATE_REQUIRED", "the server asks for a client certificate (a cert_file and key_file)"),
            ("BAD_CERTIFICATE", "the server refused the client certificate"),
            ("UNKNOWN_CA", "the server does not trust the client certificate's authority"),
            ("CERTIFICATE_UNKNOWN", "the server refused the client certificate"),
            ("CERTIFICATE_EXPIRED", "the server says the client certificate expired"),
            ("WRONG_VERSION_NUMBER", "the server does not speak TLS on this port (an http:// URL?)"),
        ]
        return phrases.first { text.contains($0.0) }?.1 ?? "the TLS handshake failed (\(text))"
    }

    /// Why the server's certificate was refused, found by a handshake that fetches it without
    /// trusting it; `answer` runs once, on an event loop thread, within twice ``timeout`` (the
    /// connection, then the handshake, each bounded by it).
    func reason(_ answer: @escaping @Sendable (String) -> Void) {
        let leaf = NIOLockedValueBox<NIOSSLCertificate?>(nil)
        probe(
            verify: { certificates, verdict in
                leaf.withLockedValue { $0 = certificates.first }
                verdict.succeed(.failed)
            },
            answer: { _ in answer(Self.describe(leaf.withLockedValue { $0 }, now: time(nil))) })
    }

    /// Why a server hung up without an answer, when a TLS alert after the handshake says it (TLS
    /// 1.3 tells of a client certificate wanted or refused only then, and the HTTP client reports
    /// a closed connection); `nil` when no alert came. `answer` runs once, within twice ``timeout``.
    func alertAfterHandshake(_ answer: @escaping @Sendable (String?) -> Void) {
        probe(verify: nil) { error in answer(error.flatMap { Self.reason(for: $0) }) }
    }

    /// One handshake with the sink's settings (with `verify` in place of the trust store's check,
    /// if given), kept open until the server closes it or ``timeout`` passes; `answer` gets the
    /// first error the connection met, once.
    private func probe(
        verify: (@Sendable ([NIOSSLCertificate], EventLoopPromise<NIOSSLVerificationResult>) -> Void)?,
        answer: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            return answer(error)
        }
        let serverName = (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
        let recorder = ErrorRecorder()
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler =
                        try verify.map {
                            try NIOSSLClientHandler(
                                context: context, serverHostname: serverName, customVerificationCallback: $0)
                        } ?? NIOSSLClientHandler(context: context, serverHostname: serverName)
                    try channel.pipeline.syncOperations.addHandlers([handler, recorder])
                }
            }
        bootstrap.connect(host: host, port: port).whenComplete { connected in
            guard case .success(let channel) = connected else {
                if case .failure(let error) = connected { answer(error) }
                return
            }
            channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
            channel.closeFuture.whenComplete { _ in answer(recorder.first.withLockedValue { $0 }) }
        }
    }

    /// Keeps the first error a probe's connection meets, and closes it then.
    private final class ErrorRecorder: ChannelInboundHandler, Sendable {
        typealias InboundIn = Any
        let first = NIOLockedValueBox<(any Error)?>(nil)

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            first.withLockedValue { $0 = $0 ?? error }
            context.close(promise: nil)
        }
    }

    /// What is wrong with `certificate` (the server's own, refused by the trust store) at `now`.
    static func describe(_ certificate: NIOSSLCertificate?, now: time_t) -> String {
        guard let certificate else { return "the server's certificate could not be verified" }
        let format = Date.ISO8601FormatStyle().year().month().day()
        if certificate.notValidAfter < now {
            let date = Date(timeIntervalSince1970: TimeInterval(certificate.notValidAfter)).formatted(format)
            return "the server's certificate expired on \(date)"
        }
        if certificate.notValidBefore > now {
            let date = Date(timeIntervalSince1970: TimeInterval(certificate.notValidBefore)).formatted(format)
            return "the server's certificate is not valid before \(date)"
        }
        return "the server's certificate is not signed by a trusted authority (give its CA as uploads.ca_file)"
    }
}
