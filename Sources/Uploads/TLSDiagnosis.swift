import AppPlatform
import CCurl
import Foundation

/// The TLS side of an ``HTTPSink``: its files checked before the first request, and failed
/// handshakes in words.
///
/// OpenSSL says why it refused the server's certificate (a verify result); when it expired or is
/// not valid yet, one more handshake reads the certificate without trusting it, to say since or
/// until when.
enum TLSDiagnosis {
    /// OpenSSL's verify results that this names (`X509_V_ERR_*` in `openssl/x509_vfy.h`).
    private enum VerifyResult {
        static let notYetValid = 9
        static let expired = 10
        static let hostNameMismatch = 62
    }

    /// Checks that `access`'s CA file, client certificate and key can be read and are PEM files
    /// of the right kind, so a wrong path is told at start and not at the first upload.
    ///
    /// - Throws: ``UploadError/invalidConfiguration(_:setting:)`` naming the file, what is wrong
    ///   and the setting that gave it.
    static func checkFiles(_ access: HTTPAccess) throws(UploadError) {
        if let caFile = access.caFile { try check("CA file", caFile, holds: "CERTIFICATE", setting: .caFile) }
        if let certFile = access.certFile {
            try check("client certificate file", certFile, holds: "CERTIFICATE", setting: .certFile)
        }
        if let keyFile = access.keyFile {
            try check("client key file", keyFile, holds: "PRIVATE KEY", setting: .keyFile)
        }
    }

    /// Throws unless `path` can be read and holds a PEM block whose label ends in `label`
    /// (`CERTIFICATE`; `PRIVATE KEY` for `EC PRIVATE KEY` and `RSA PRIVATE KEY` too).
    private static func check(_ role: String, _ path: String, holds label: String, setting: UploadSetting)
        throws(UploadError)
    {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(atPath: path)
        } catch {
            throw .invalidConfiguration("the \(role) \(path) cannot be read: \(error.reason)", setting: setting)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let hasBlock = text.split(separator: "\n").contains { line in
            line.hasPrefix("-----BEGIN ") && line.trimmingCharacters(in: .whitespaces).hasSuffix("\(label)-----")
        }
        guard hasBlock else {
            let kind = label == "CERTIFICATE" ? "PEM certificate" : "PEM private key"
            throw .invalidConfiguration(
                "the \(role) \(path) holds no \(kind) (a \"-----BEGIN \(label)-----\" block)", setting: setting)
        }
    }

    /// A failed handshake in words, or `nil` when `failure` is not about TLS.
    static func reason(for failure: CurlTransfer.Failure, request: CurlTransfer.Request) -> String? {
        switch failure.code {
        case CURLE_PEER_FAILED_VERIFICATION:
            return refusedCertificate(failure, request: request)
        case CURLE_SSL_CONNECT_ERROR:
            return alert(in: failure.message) ?? "the TLS handshake failed (\(failure.message))"
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            // TLS 1.3 tells of a client certificate wanted or refused after the handshake, at the
            // first read; when the connection was reset before that alert was read, one more
            // handshake reads what the server says.
            if let words = alert(in: failure.message) { return words }
            guard request.url.lowercased().hasPrefix("https:") else { return nil }
            if let words = CurlTransfer.messageAfterHandshake(
                url: request.url, timeout: request.timeout, access: request.access
            ).flatMap(alert(in:)) {
                return words
            }
            // A server that resets the connection as it sends its alert can lose the alert on
            // the way: what is known is that it ends connections that finished their handshake.
            return request.access.certFile == nil
                ? "the server ends the connection after the TLS handshake; it may ask for a client certificate "
                    + "(a cert_file and key_file)"
                : "the server ends the connection after the TLS handshake; it may refuse the client certificate"
        case CURLE_SSL_CERTPROBLEM:
            return "the client certificate or key could not be used (\(failure.message))"
        case CURLE_SSL_CACERT_BADFILE:
            return "the CA file could not be used (\(failure.message))"
        default:
            return nil
        }
    }

    /// Why the server's certificate was refused.
    private static func refusedCertificate(_ failure: CurlTransfer.Failure, request: CurlTransfer.Request) -> String {
        if failure.verifyResult == VerifyResult.hostNameMismatch || failure.message.contains("host name") {
            return "the server's certificate is for another host name (\(failure.message)); "
                + "use a name the certificate lists in the upload URL"
        }
        if failure.verifyResult == VerifyResult.expired || failure.verifyResult == VerifyResult.notYetValid {
            let dates = CurlTransfer.serverCertificateDates(
                url: request.url, timeout: request.timeout, access: request.access)
            if failure.verifyResult == VerifyResult.expired {
                return "the server's certificate expired" + (dates.flatMap { day($0.expiry) }.map { " on \($0)" } ?? "")
            }
            return "the server's certificate is not valid "
                + (dates.flatMap { day($0.start) }.map { "before \($0)" } ?? "yet")
        }
        if failure.verifyResult != 0 {
            return "the server's certificate is not signed by a trusted authority (give its CA as uploads.ca_file)"
        }
        return "the server's certificate could not be verified (\(failure.message))"
    }

    /// The server's TLS alert in `message`, in words; `nil` when it holds none of these.
    static func alert(in message: String) -> String? {
        let phrases: [(String, String)] = [
            ("certificate required", "the server asks for a client certificate (a cert_file and key_file)"),
            ("bad certificate", "the server refused the client certificate"),
            ("unknown ca", "the server does not trust the client certificate's authority"),
            ("certificate unknown", "the server refused the client certificate"),
            ("certificate expired", "the server says the client certificate expired"),
            ("wrong version number", "the server does not speak TLS on this port (an http:// URL?)"),
        ]
        let text = message.lowercased()
        return phrases.first { text.contains($0.0) }?.1
    }

    /// libcurl's date (`Jan  2 00:00:00 2020 GMT`) as a day, `2020-01-02`; `nil` when it is not one.
    static func day(_ date: String) -> String? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let parts = date.split(separator: " ")
        guard parts.count >= 4, let month = months.firstIndex(of: String(parts[0])), let dayOfMonth = Int(parts[1]),
            let year = Int(parts[3])
        else { return nil }
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(twoDigits(month + 1))-\(twoDigits(dayOfMonth))"
    }
}
