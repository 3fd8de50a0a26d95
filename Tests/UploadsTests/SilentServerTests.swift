import Foundation
import Glibc
import Testing
import Uploads

/// Servers that take the connection and then say nothing, or hang up: every delivery ends, within
/// the sink's own timeout, as a failure in words that keeps the batch.
@Suite(.serialized) struct SilentServerTests {
    /// A listening socket on 127.0.0.1 that never accepts: the kernel completes TCP handshakes,
    /// and what a client sends waits in its queue, unanswered.
    final class SilentListener {
        let descriptor: Int32
        let port: Int

        init() throws {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.descriptor = descriptor
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, length) == 0 && listen(descriptor, 16) == 0
                        && getsockname(descriptor, $0, &length) == 0
                }
            }
            guard descriptor >= 0, bound else { throw CollectorFailure("no silent listener: \(errno)") }
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    let batch = Batch(
        id: UUID(), createdAt: SampleFixtures.time(300),
        samples: [StoredSample(seq: 1, sample: SampleFixtures.position(0))])

    @Test(
        "A server that never answers the TLS handshake: the delivery ends as a timeout after the sink's timeout",
        arguments: ["https", "http"])
    func silentHandshakeTimesOut(scheme: String) throws {
        let listener = try SilentListener()
        let endpoint = "\(scheme)://localhost:\(listener.port)/api/v1/write"
        let sink = try HTTPSink(endpoint: endpoint, timeout: .seconds(1))
        let delivery = try #require(deliver(batch, to: sink), "the delivery never ended")
        #expect(delivery.error == .timedOut(destination: endpoint, after: .seconds(1)))
        #expect(delivery.error?.isRetryable == true)
    }
}
