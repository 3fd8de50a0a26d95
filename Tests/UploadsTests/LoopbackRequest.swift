import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request to a test server on loopback (the collector, Prometheus); its body when it answers
/// 200, a ``CollectorFailure`` naming the status otherwise.
///
/// URLSession answers with a timeout error after `seconds`; the semaphore's bound only catches a hang.
func loopbackRequest(_ method: String, _ url: String, body: Data? = nil, timeout seconds: Int = 30) throws -> Data {
    guard let address = URL(string: url) else { throw CollectorFailure("\(url) is not a URL") }
    var request = URLRequest(url: address)
    request.httpMethod = method
    request.httpBody = body
    request.timeoutInterval = TimeInterval(seconds)
    let answer = Mutex<Result<Data, CollectorFailure>?>(nil)
    let done = DispatchSemaphore(value: 0)
    URLSession.shared.dataTask(with: request) { data, response, error in
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        answer.withLock {
            $0 =
                status == 200 && error == nil
                ? .success(data ?? Data())
                : .failure(
                    CollectorFailure(
                        "\(method) \(url) failed: status \(status), \(String(describing: error)), "
                            + String(decoding: data ?? Data(), as: UTF8.self)))
        }
        done.signal()
    }.resume()
    guard done.wait(timeout: .now() + .seconds(seconds + 5)) == .success, let result = answer.withLock({ $0 }) else {
        throw CollectorFailure("\(method) \(url) got no answer")
    }
    return try result.get()
}
