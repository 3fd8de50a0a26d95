import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A URLSession delegate that refuses every redirect, so the 3xx answer itself reaches
/// ``HTTPSink``'s completion.
///
/// Following one would be worse than failing: a `POST` redirected with 301, 302 or 303
/// becomes a `GET`, whose 2xx would acknowledge a batch the server never stored.
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
