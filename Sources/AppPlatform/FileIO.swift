import Glibc

/// The package's file calls: whole reads and writes, directories, crash-safe replacement and
/// scratch directories, each failure a ``FileError`` naming the path and the reason.
///
/// An interrupted call (`EINTR`) is made again, and so is one that would block (`EAGAIN`, which a
/// blocking file only returns for a moment); a short write goes on with the rest. Every call here
/// can be failed on purpose by a `FaultInjection` run, which is how the tests show what the
/// callers do with a full disk or a descriptor shortage.
public enum FileIO {
    /// Makes `call` (its result `-1` with `errno` on failure) until it neither is interrupted nor
    /// would block; an injected fault stands in for the call's own failure.
    public static func call<Result: FixedWidthInteger & SignedInteger>(
        _ call: FaultInjection.Call, path: String, operation: String, _ body: () -> Result
    ) throws(FileError) -> Result {
        while true {
            let result: Result
            if let fault = FaultInjection.fault(for: call, path: path), let code = fault.errno {
                errno = code
                result = -1
            } else {
                result = body()
            }
            if result != -1 { return result }
            let code = errno
            if code == EINTR || code == EAGAIN { continue }
            throw FileError(path: path, operation: operation, code: code)
        }
    }

    /// Opens `path` with `flags` (`O_CLOEXEC` is added) and `mode` for a created file.
    public static func open(_ path: String, flags: Int32, mode: mode_t = 0o600) throws(FileError) -> Int32 {
        try call(.open, path: path, operation: flags & (O_WRONLY | O_RDWR) != 0 ? "create" : "open") {
            Glibc.open(path, flags | O_CLOEXEC, mode)
        }
    }

    /// Writes all of `bytes` to `descriptor` (a file at `path`, for messages).
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FileError) {
        var offset = 0
        while offset < bytes.count {
            var length = bytes.count - offset
            // A short write is the kernel's right: an injected one writes half.
            if FaultInjection.shortensWrite(path: path) { length = max(length / 2, 1) }
            let written = try call(.write, path: path, operation: "write") {
                bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, length) }
            }
            offset += written
        }
    }

    /// Reads `descriptor` (a file at `path`) to its end, or to one byte past `maximum`, so that a
    /// caller can refuse a file larger than it accepts without reading all of it.
    public static func readAll(_ descriptor: Int32, path: String, maximum: Int = .max) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= maximum {
            let count = try call(.read, path: path, operation: "read") {
                chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return bytes
    }

    /// The bytes of the file at `path`, including `/proc` files whose size reads as zero.
    public static func read(atPath path: String) throws(FileError) -> [UInt8] {
        let descriptor = try open(path, flags: O_RDONLY)
        defer { close(descriptor) }
        return try readAll(descriptor, path: path)
    }

    /// Creates `path` and any missing parents with mode 0700; an existing directory is fine.
    ///
    /// Ends by checking that the directory is writable by this process.
    public static func createDirectory(atPath path: String) throws(FileError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            do {
                _ = try call(.mkdir, path: prefix, operation: "create the directory") { mkdir(prefix, 0o700) }
                continue
            } catch  where error.code == EEXIST {
                var status = stat()
                guard stat(prefix, &status) == 0 else { throw lastError(path: prefix, operation: "inspect") }
                guard status.st_mode & S_IFMT == S_IFDIR else {
                    throw FileError(path: prefix, operation: "use as a directory", code: ENOTDIR)
                }
            }
        }
        guard access(path, W_OK | X_OK) == 0 else { throw lastError(path: path, operation: "write into the directory") }
    }

    /// Replaces the file at `path` with `bytes` so that a crash or a failure leaves either the old
    /// or the new content, never a mix: write a temporary file beside it, fsync it, rename it over
    /// `path`, fsync the directory. A failed replacement removes its temporary file. The new file
    /// has permissions `mode`.
    public static func replace(atPath path: String, with bytes: [UInt8], mode: mode_t = 0o600) throws(FileError) {
        let directory = parentDirectory(of: path)
        // Unique per call, so two writers of the same file never share a temporary.
        let temporary =
            directory + "/." + lastComponent(of: path) + ".\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let descriptor = try open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        do throws(FileError) {
            try writeAll(bytes, to: descriptor, path: temporary)
            _ = try call(.fsync, path: temporary, operation: "flush to disk") { fsync(descriptor) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        // Not retried after EINTR: Linux has closed the descriptor whatever close returns.
        guard close(descriptor) == 0 else {
            let failure = lastError(path: temporary, operation: "close")
            unlink(temporary)
            throw failure
        }
        do throws(FileError) {
            _ = try call(.rename, path: path, operation: "move into place") { rename(temporary, path) }
        } catch {
            unlink(temporary)
            throw error
        }
        // Makes the rename durable: without this a crash can forget the new name.
        let directoryDescriptor = try open(directory, flags: O_RDONLY | O_DIRECTORY)
        defer { close(directoryDescriptor) }
        _ = try call(.fsync, path: directory, operation: "flush to disk") { fsync(directoryDescriptor) }
    }

    /// Creates a new directory `prefix.XXXXXX` (mode 0700) in `$TMPDIR`, or `/tmp`, and returns its path.
    public static func makeTemporaryDirectory(prefix: String) throws(FileError) -> String {
        let parent = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let pattern = (parent.hasSuffix("/") ? parent : parent + "/") + prefix + ".XXXXXX"
        var template = Array(pattern.utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw lastError(path: pattern, operation: "create the directory")
        }
        return String(cString: created)
    }

    private static func lastError(path: String, operation: String) -> FileError {
        FileError(path: path, operation: operation, code: errno)
    }

    private static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
