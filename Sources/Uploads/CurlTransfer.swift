import CCurl
import Foundation

/// One HTTP exchange through libcurl's easy interface, on the calling thread: a `POST` with its
/// headers and body, a `GET`, or a TLS handshake alone to read the server's certificate.
///
/// Every transfer opens a connection of its own and closes it (a batch every few minutes gains
/// nothing from a kept connection the server may have closed in between), follows no redirect,
/// ignores the `*_proxy` environment variables, speaks only `http` and `https`, and is bounded
/// in all by its timeout, to the millisecond.
///
/// ```swift
/// let request = CurlTransfer.Request(
///     url: "http://127.0.0.1:9090/api/v1/write", headers: [("Content-Type", "application/json")],
///     body: Data("{}".utf8), timeout: .seconds(10), access: HTTPAccess())
/// switch CurlTransfer.send(request) {
/// case .success(let response): print(response.status)
/// case .failure(let failure): print(failure.message)
/// }
/// ```
enum CurlTransfer {
    /// What to send, and with which trust roots and client certificate.
    struct Request {
        /// The absolute `http` or `https` URL.
        var url: String
        /// The request's own headers, in order.
        var headers: [(name: String, value: String)]
        /// The body of the `POST`; `nil` sends a `GET`.
        var body: Data?
        /// The bound of the whole exchange: connection, handshake, request and answer.
        var timeout: Duration
        /// The TLS settings (CA file, client certificate and key, verification).
        var access: HTTPAccess
        /// How much of the answer's body is kept.
        var bodyLimit = CurlTransfer.bodyLimit
    }

    /// A server's answer.
    struct Response {
        /// The status code.
        var status: Int
        /// The last answer's headers, by lowercased name (a repeated header keeps its last value).
        var headers: [String: String]
        /// The body's first ``Request/bodyLimit`` bytes.
        var body: Data
    }

    /// A transfer that got no answer.
    struct Failure: Error, Equatable {
        /// libcurl's code (`CURLE_COULDNT_CONNECT`, `CURLE_PEER_FAILED_VERIFICATION`, …).
        var code: CURLcode
        /// libcurl's words for it: its error buffer, or the code's general text.
        var message: String
        /// The system's `errno` of the last failed call on the connection (`ECONNREFUSED`, …), 0 for none.
        var systemError: Int32
        /// OpenSSL's verdict on the server's certificate (`X509_V_OK` is 0).
        var verifyResult: Int
    }

    /// The server's certificate as the handshake showed it: its validity, as libcurl prints it
    /// (`Jan  2 00:00:00 2020 GMT`).
    struct CertificateDates: Equatable {
        /// The first moment it is valid (`Start date`).
        var start: String
        /// The last moment it is valid (`Expire date`).
        var expiry: String
    }

    /// How much of a response's body is kept by default: enough for any error text a server sends.
    static let bodyLimit = 64 * 1024

    /// libcurl's process-wide set-up, done once before the first handle (it is not thread-safe
    /// on every build of libcurl, and a lazy global runs once).
    private static let globalSetUp: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

    /// Sends `request` and waits for the answer (at most its timeout).
    static func send(_ request: Request) -> Result<Response, Failure> {
        let collector = ResponseCollector(limit: request.bodyLimit)
        return withHandle(url: request.url, timeout: request.timeout, access: request.access) { handle in
            var list: UnsafeMutablePointer<curl_slist>?
            // curl would otherwise send `Expect: 100-continue` before a body over 1 KiB and wait
            // for the server's interim answer.
            for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
                list = curl_slist_append(list, line)
            }
            defer { curl_slist_free_all(list) }
            timerdeck_curl_set_pointer(handle, CURLOPT_HTTPHEADER, list)
            let context = Unmanaged.passUnretained(collector).toOpaque()
            timerdeck_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, collectHeader)
            timerdeck_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
            timerdeck_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, collectBody)
            timerdeck_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
            let answer = {
                var status = 0
                timerdeck_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
                return Response(status: status, headers: collector.headers, body: collector.body)
            }
            guard let body = request.body else { return perform(handle, success: answer) }
            timerdeck_curl_set_long(handle, CURLOPT_POST, 1)
            timerdeck_curl_set_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            return body.withUnsafeBytes { bytes in
                timerdeck_curl_set_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress)
                return perform(handle, success: answer)
            }
        }
    }

    /// Connects to `url`'s server and completes a TLS handshake that trusts any certificate, to
    /// read the server's own; `nil` when the handshake fails or shows none.
    static func serverCertificateDates(url: String, timeout: Duration, access: HTTPAccess) -> CertificateDates? {
        var trusting = access
        trusting.insecureSkipVerify = true
        let result = withHandle(url: url, timeout: timeout, access: trusting) { handle in
            timerdeck_curl_set_long(handle, CURLOPT_CONNECT_ONLY, 1)
            timerdeck_curl_set_long(handle, CURLOPT_CERTINFO, 1)
            return perform(handle) { () -> CertificateDates? in
                var info: UnsafeMutablePointer<curl_certinfo>?
                guard timerdeck_curl_get_certinfo(handle, &info) == CURLE_OK, let info, info.pointee.num_of_certs > 0,
                    let fields = info.pointee.certinfo?[0]
                else { return nil }
                return dates(in: fields)
            }
        }
        return try? result.get()
    }

    /// Completes a TLS handshake with `access`'s settings and waits, within `timeout`, for what
    /// the server says next: TLS 1.3 servers send their verdict on the client certificate (one
    /// wanted, or refused) only after the handshake, so an answer lost to a reset connection is
    /// read here. Returns libcurl's words for the read that failed; `nil` when the handshake
    /// itself failed or the server said nothing.
    static func messageAfterHandshake(url: String, timeout: Duration, access: HTTPAccess) -> String? {
        let result = withHandle(url: url, timeout: timeout, access: access) { handle in
            timerdeck_curl_set_long(handle, CURLOPT_CONNECT_ONLY, 1)
            // The connection stays open after the handshake, to be read from.
            timerdeck_curl_set_long(handle, CURLOPT_FORBID_REUSE, 0)
            return perform(handle) { () -> String? in
                var socket: curl_socket_t = -1
                guard timerdeck_curl_get_socket(handle, &socket) == CURLE_OK, socket >= 0 else { return nil }
                var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
                var buffer = [UInt8](repeating: 0, count: 256)
                let deadline = ContinuousClock.now + timeout
                return errorText.withUnsafeMutableBufferPointer { text -> String? in
                    timerdeck_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, text.baseAddress)
                    defer { timerdeck_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, nil) }
                    while ContinuousClock.now < deadline {
                        var received = 0
                        let code = buffer.withUnsafeMutableBytes {
                            curl_easy_recv(handle, $0.baseAddress, $0.count, &received)
                        }
                        if code == CURLE_AGAIN {
                            var waiting = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                            _ = poll(&waiting, 1, 100)
                            continue
                        }
                        guard code != CURLE_OK || received == 0 else { continue }
                        guard code != CURLE_OK else { return nil }
                        let words = String(cString: text.baseAddress!)
                        return words.isEmpty ? String(cString: curl_easy_strerror(code)) : words
                    }
                    return nil
                }
            }
        }
        // This handshake only words a refusal already reported: when it cannot be made, the
        // caller says the hedged reason instead.
        return (try? result.get()) ?? nil
    }

    /// The `Start date` and `Expire date` of one certificate's fields (a list of `Name:value`).
    private static func dates(in fields: UnsafeMutablePointer<curl_slist>) -> CertificateDates? {
        var values: [String: String] = [:]
        var field: UnsafeMutablePointer<curl_slist>? = fields
        while let current = field {
            if let data = current.pointee.data {
                let text = String(cString: data)
                if let colon = text.firstIndex(of: ":") {
                    values[String(text[..<colon])] = String(text[text.index(after: colon)...])
                }
            }
            field = current.pointee.next
        }
        guard let start = values["Start date"], let expiry = values["Expire date"] else { return nil }
        return CertificateDates(start: start, expiry: expiry)
    }

    /// A handle set up for `url` with `timeout` and `access`'s TLS settings, given to `body` and
    /// cleaned up after it.
    private static func withHandle<Value>(
        url: String, timeout: Duration, access: HTTPAccess,
        _ body: (UnsafeMutableRawPointer) -> Result<Value, Failure>
    ) -> Result<Value, Failure> {
        guard globalSetUp == CURLE_OK, let handle = curl_easy_init() else {
            return .failure(
                Failure(code: CURLE_FAILED_INIT, message: "libcurl could not start", systemError: 0, verifyResult: 0))
        }
        defer { curl_easy_cleanup(handle) }
        timerdeck_curl_set_pointer(handle, CURLOPT_URL, url)
        timerdeck_curl_set_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        timerdeck_curl_set_pointer(handle, CURLOPT_PROXY, "")
        timerdeck_curl_set_pointer(handle, CURLOPT_USERAGENT, "timerdeck")
        timerdeck_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        timerdeck_curl_set_long(handle, CURLOPT_FRESH_CONNECT, 1)
        timerdeck_curl_set_long(handle, CURLOPT_FORBID_REUSE, 1)
        timerdeck_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        let milliseconds = timeout.roundedUpMilliseconds
        timerdeck_curl_set_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
        timerdeck_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
        if let caFile = access.caFile { timerdeck_curl_set_pointer(handle, CURLOPT_CAINFO, caFile) }
        if let certFile = access.certFile, let keyFile = access.keyFile {
            timerdeck_curl_set_pointer(handle, CURLOPT_SSLCERT, certFile)
            timerdeck_curl_set_pointer(handle, CURLOPT_SSLCERTTYPE, "PEM")
            timerdeck_curl_set_pointer(handle, CURLOPT_SSLKEY, keyFile)
            timerdeck_curl_set_pointer(handle, CURLOPT_SSLKEYTYPE, "PEM")
        }
        timerdeck_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, access.insecureSkipVerify ? 0 : 1)
        timerdeck_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, access.insecureSkipVerify ? 0 : 2)
        return body(handle)
    }

    /// Runs the transfer set up on `handle`; `success` reads its outcome when it completed.
    private static func perform<Value>(_ handle: UnsafeMutableRawPointer, success: () -> Value) -> Result<
        Value, Failure
    > {
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code = errorText.withUnsafeMutableBufferPointer { buffer in
            timerdeck_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            defer { timerdeck_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, nil) }
            return curl_easy_perform(handle)
        }
        guard code != CURLE_OK else { return .success(success()) }
        var systemError = 0
        var verifyResult = 0
        timerdeck_curl_get_long(handle, CURLINFO_OS_ERRNO, &systemError)
        timerdeck_curl_get_long(handle, CURLINFO_SSL_VERIFYRESULT, &verifyResult)
        let buffered = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let message = buffered.isEmpty ? String(cString: curl_easy_strerror(code)) : buffered
        return .failure(
            Failure(code: code, message: message, systemError: Int32(systemError), verifyResult: verifyResult))
    }

    /// What a transfer's callbacks gather: the last answer's headers and the body's first bytes.
    private final class ResponseCollector {
        let limit: Int
        var headers: [String: String] = [:]
        var body = Data()

        init(limit: Int) { self.limit = limit }

        /// One header line; a status line starts a new answer (after an interim `1xx`).
        func header(_ line: String) {
            if line.hasPrefix("HTTP/") {
                headers = [:]
                return
            }
            guard let colon = line.firstIndex(of: ":") else { return }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Body bytes, kept up to ``limit``.
        func body(_ bytes: UnsafeRawBufferPointer) {
            body.append(contentsOf: bytes.prefix(max(0, limit - body.count)))
        }
    }

    /// `CURLOPT_HEADERFUNCTION`: hands each header line to the collector.
    private static let collectHeader: timerdeck_curl_data_callback = { data, size, count, context in
        let length = size * count
        guard let data, let context else { return length }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        collector.header(String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self))
        return length
    }

    /// `CURLOPT_WRITEFUNCTION`: hands the body's bytes to the collector.
    private static let collectBody: timerdeck_curl_data_callback = { data, size, count, context in
        let length = size * count
        guard let data, let context else { return length }
        let collector = Unmanaged<ResponseCollector>.fromOpaque(context).takeUnretainedValue()
        collector.body(UnsafeRawBufferPointer(start: data, count: length))
        return length
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up (a positive timeout never becomes 0, which
    /// libcurl reads as none), saturating at `Int.max`.
    fileprivate var roundedUpMilliseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int.max / 1000) - 1 else { return Int.max }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        return Int(seconds * 1000 + (attoseconds + perMillisecond - 1) / perMillisecond)
    }
}
