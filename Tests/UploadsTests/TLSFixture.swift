import Foundation
import TestSupport

/// Certificates made on the fly with `openssl`: a test CA, a server certificate it signs for
/// `localhost` only (so `127.0.0.1` is the wrong host name), the same server key certified by the
/// CA but expired in 2020, a self-signed server certificate no one trusts, and a client
/// certificate the CA signs.
final class TLSFixture {
    let scratch: ScratchDirectory

    /// Makes every file; throws with openssl's words when a step fails.
    init() throws {
        scratch = try ScratchDirectory(prefix: "tls")
        _ = try scratch.write("subjectAltName=DNS:localhost\n", to: "server.ext")
        _ = try scratch.write("", to: "index.txt")
        _ = try scratch.write("1000\n", to: "serial")
        _ = try scratch.write(
            """
            [ca]
            default_ca = test
            [test]
            database = index.txt
            new_certs_dir = .
            serial = serial
            default_md = sha256
            policy = any
            unique_subject = no
            [any]
            commonName = supplied

            """, to: "ca.cnf")
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try openssl(
            ["req", "-x509"] + key + ["-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=test CA"])
        try openssl(["req"] + key + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"])
        try openssl([
            "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.pem", "-days", "2", "-extfile", "server.ext",
        ])
        try openssl([
            "ca", "-batch", "-config", "ca.cnf", "-in", "server.csr", "-cert", "ca.pem", "-keyfile", "ca.key",
            "-startdate", "20200101000000Z", "-enddate", "20200102000000Z", "-extfile", "server.ext", "-notext",
            "-out", "expired.pem",
        ])
        try openssl([
            "req", "-x509", "-key", "server.key", "-out", "self-signed.pem", "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost",
        ])
        try openssl(["req"] + key + ["-keyout", "client.key", "-out", "client.csr", "-subj", "/CN=timerdeck"])
        try openssl([
            "x509", "-req", "-in", "client.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "client.pem", "-days", "2",
        ])
    }

    /// The path of a file made here: `ca.pem`, `server.pem`, `server.key`, `expired.pem`,
    /// `self-signed.pem`, `client.pem`, `client.key`.
    func path(_ name: String) -> String { scratch.path(name).path }

    /// Runs `openssl` in the scratch directory (standard input closed, so no prompt can wait),
    /// killed if it has not ended within a minute.
    private func openssl(_ arguments: [String]) throws {
        let outcome = try ChildProcess.run(
            "/bin/sh", ["-c", "cd \"$0\" && exec /usr/bin/openssl \"$@\"", scratch.url.path] + arguments,
            timeout: .seconds(60))
        guard outcome.status == 0 else {
            throw CollectorFailure("openssl \(arguments.joined(separator: " ")) failed: \(outcome)")
        }
    }

    /// A bcrypt hash of `password` for Prometheus's `basic_auth_users`, by `htpasswd` (Debian's
    /// apache2-utils, which ./test.sh installs).
    static func bcrypt(_ password: String) throws -> String {
        let outcome = try ChildProcess.run(
            "/usr/bin/htpasswd", ["-nbBC", "10", "user", password], timeout: .seconds(60))
        let line = outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard outcome.status == 0, line.hasPrefix("user:$2") else {
            throw CollectorFailure("htpasswd could not make a bcrypt hash: \(outcome)")
        }
        return String(line.dropFirst("user:".count))
    }
}

/// A request to a test server behind TLS and basic auth (Prometheus with a web config), made by
/// Debian's `curl`: its body when it answers 200, a ``CollectorFailure`` naming the status otherwise.
///
/// It trusts any certificate: it reads back what the sink stored, and the servers of the tests
/// that refuse certificates (expired, self-signed) must still answer it. The credentials go in a
/// header file, not on curl's command line.
func securedRequest(
    _ method: String, _ url: String, user: String, password: String,
    clientCertificate: (certFile: String, keyFile: String)? = nil, timeout seconds: Int = 30
) throws -> Data {
    let scratch = try ScratchDirectory(prefix: "secured-request")
    let credentials = Data("\(user):\(password)".utf8).base64EncodedString()
    let headers = try scratch.write("Authorization: Basic \(credentials)\n", to: "headers")
    let body = scratch.path("body").path
    var arguments = [
        "--silent", "--show-error", "--insecure", "--max-time", "\(seconds)", "--request", method,
        "--header", "@\(headers)", "--output", body, "--write-out", "%{http_code}",
    ]
    if let clientCertificate {
        arguments += ["--cert", clientCertificate.certFile, "--key", clientCertificate.keyFile]
    }
    let outcome = try ChildProcess.run("/usr/bin/curl", arguments + [url], timeout: .seconds(seconds + 30))
    let answer = FileManager.default.contents(atPath: body) ?? Data()
    guard outcome.status == 0, outcome.output == "200" else {
        throw CollectorFailure("\(method) \(url) failed: \(outcome), \(String(decoding: answer, as: UTF8.self))")
    }
    return answer
}
