import Glibc

/// The advisory lock that makes one process the only writer of a file (an outbox, a timers file):
/// an exclusive `flock` on `<file>.lock`, which holds the owner's PID for the error a second
/// process shows.
///
/// The kernel drops the lock when its descriptor is closed, including when the process dies
/// (even by SIGKILL), so a stale lock file never blocks a restart.
///
/// ```swift
/// let lock = try FileLock(guarding: "/home/me/.local/state/timerdeck/timers.state")
/// ```
public final class FileLock: Sendable {
    /// Why the lock was not taken.
    public enum Failure: Error, Equatable {
        /// Another process holds it; its PID when the lock file names one.
        case inUse(holder: Int32?)
        /// The lock file cannot be created or locked, with the reason in words.
        case cannotLock(reason: String)
    }

    /// The lock file.
    public let path: String
    private let descriptor: Int32

    /// Takes the lock of `file` (its `.lock` beside it) without waiting.
    public init(guarding file: String) throws(Failure) {
        path = file + ".lock"
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EACCES {
            // Another user's lock file still locks (flock needs no write access); the file's own
            // first write then says whether this user may write it at all.
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw .cannotLock(reason: "cannot create the lock file: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            let holder = Self.readHolder(descriptor)
            close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw .cannotLock(reason: "cannot lock the lock file: \(String(cString: strerror(failure)))")
            }
            throw .inUse(holder: holder)
        }
        self.descriptor = descriptor
        let text = Array("\(getpid())\n".utf8)
        // The PID is only for the message another process shows; a failure to write it does not
        // weaken the lock, which is the flock itself.
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBufferPointer { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    deinit {
        close(descriptor)
    }

    /// The PID written in the lock file, or nil when it is empty or not a number (the holder
    /// has just taken the lock and not yet written it).
    private static func readHolder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBufferPointer { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        return text.split(whereSeparator: \.isWhitespace).first.flatMap { Int32($0) }
    }
}
