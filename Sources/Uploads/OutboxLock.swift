import Glibc

/// The advisory lock that makes one process the only writer of an outbox: an exclusive
/// `flock` on `<outbox>.lock`, which holds the owner's PID for the error a second process shows.
///
/// The kernel drops the lock when its descriptor is closed, including when the process dies
/// (even by SIGKILL), so a stale lock file never blocks a restart.
final class OutboxLock: Sendable {
    /// The lock file.
    let path: String
    private let descriptor: Int32

    /// Takes the lock without waiting.
    ///
    /// - Throws: ``OutboxError/inUse(path:holder:)`` when another open outbox holds it,
    ///   ``OutboxError/cannotWrite(path:reason:)`` when the lock file cannot be created.
    init(outboxPath: String) throws(OutboxError) {
        path = outboxPath + ".lock"
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EACCES {
            // Another user's lock file still locks (flock needs no write access); the outbox's own
            // first write then says whether this user may write the outbox at all.
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw .cannotWrite(path: path, reason: "cannot create the lock file: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            let holder = Self.readHolder(descriptor)
            close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw .cannotWrite(
                    path: path, reason: "cannot lock the lock file: \(String(cString: strerror(failure)))")
            }
            throw .inUse(path: outboxPath, holder: holder)
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
