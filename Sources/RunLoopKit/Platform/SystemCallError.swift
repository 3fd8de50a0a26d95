import Glibc

/// A system call that failed: which call, and the `errno` it set (swift-system's `Errno`, with the call's name).
///
/// ```swift
/// do {
///     let loop = try RunLoop.make()
///     loop.run()
/// } catch {
///     print(error)   // "eventfd failed: EMFILE (Too many open files)"
/// }
/// ```
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The name of the system call, as in its manual page (`epoll_ctl`, `eventfd` …).
    public let call: String
    /// The error number the call set.
    public let errno: Int32

    /// An error of `call` with error number `errno`.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The symbolic name of ``errno`` for the errors a run loop can meet, else its number.
    var errnoName: String {
        switch errno {
        case EMFILE: "EMFILE"
        case ENFILE: "ENFILE"
        case ENOMEM: "ENOMEM"
        case ENOSPC: "ENOSPC"
        case EPERM: "EPERM"
        case EBADF: "EBADF"
        case EEXIST: "EEXIST"
        case ENOENT: "ENOENT"
        case EINVAL: "EINVAL"
        case EAGAIN: "EAGAIN"
        case EINTR: "EINTR"
        default: "errno \(errno)"
        }
    }

    /// "call failed: NAME (message)", for example "epoll_ctl failed: EPERM (Operation not permitted)".
    public var description: String {
        "\(call) failed: \(errnoName) (\(String(cString: strerror(errno))))"
    }
}
