import Glibc
import RunLoopKit

/// The file descriptors timerdeck opens, checked for first thing, before any file or the terminal
/// is touched: its run loop and the main queue's eventfd, the outbox, its journal and lock, the
/// trace, the epoll set of each run loop mode it enters, libdispatch's event loop, hooks' pipes.
/// A process short of them would fail deep inside libdispatch or a run loop (which stop the
/// program), with the terminal left raw.
enum DescriptorReserve {
    /// How many descriptors must be free at start: about twice what a session with uploads, a
    /// trace, a recording and running hooks opens.
    static let count = 32

    /// Checks that ``count`` descriptors can still be opened, by opening and closing them.
    /// - Throws: ``Shortage`` naming the limit and the fix.
    static func check() throws(Shortage) {
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        while opened.count < count {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw Shortage(errno: errno) }
            opened.append(descriptor)
        }
    }

    /// The limit on open descriptors (`ulimit -n`).
    static var limit: UInt64 {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return UInt64(limit.rlim_cur)
    }

    /// Too few descriptors left to run; the message names the limit and how to raise it.
    struct Shortage: Error, CustomStringConvertible {
        /// Why the last descriptor could not be opened (`EMFILE`, `ENFILE`).
        let errno: Int32

        /// Reports `error` as a shortage when it is one (out of descriptors), `nil` otherwise.
        init?(_ error: SystemCallError) {
            guard error.errno == EMFILE || error.errno == ENFILE else { return nil }
            self.init(errno: error.errno)
        }

        init(errno: Int32) {
            self.errno = errno
        }

        var description: String {
            if errno == ENFILE {
                return "the system is out of file descriptors (ENFILE); close other programs and start again"
            }
            return "out of file descriptors: the limit on open files (ulimit -n) is \(DescriptorReserve.limit), "
                + "and timerdeck needs \(DescriptorReserve.count) more than the ones already open (the terminal's, "
                + "the shell's) free at start; "
                + "raise the limit (e.g. `ulimit -n 1024`) and start again"
        }
    }
}
