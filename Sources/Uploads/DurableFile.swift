import Glibc

/// Directory creation and crash-safe file replacement on top of POSIX calls.
///
/// Each failure names the path and the reason (`errno`), so callers can tell the user which
/// file could not be written and why.
enum DurableFile {
    /// Creates `path` and any missing parents with mode 0700; an existing directory is fine.
    ///
    /// Ends by checking that the directory is writable by this process.
    static func createDirectory(atPath path: String) throws(FileOperationError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + component
            if mkdir(prefix, 0o700) == 0 { continue }
            let failure = FileOperationError.lastError(path: prefix, operation: "create the directory")
            guard failure.code == EEXIST else { throw failure }
            var status = stat()
            guard stat(prefix, &status) == 0 else {
                throw FileOperationError.lastError(path: prefix, operation: "inspect")
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw FileOperationError(path: prefix, operation: "use as a directory", code: ENOTDIR)
            }
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw FileOperationError.lastError(path: path, operation: "write into the directory")
        }
    }

    /// Replaces the file at `path` with `bytes` so that a crash leaves either the old or the
    /// new content, never a mix: write a temporary file beside it, fsync it, rename it over
    /// `path`, fsync the directory.
    static func replace(atPath path: String, with bytes: [UInt8]) throws(FileOperationError) {
        let directory = parentDirectory(of: path)
        // Unique per call, so two writers of the same file never share a temporary.
        let temporary =
            directory + "/." + lastComponent(of: path) + ".\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .lastError(path: temporary, operation: "create") }
        do throws(FileOperationError) {
            try writeAll(bytes, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else { throw .lastError(path: temporary, operation: "flush to disk") }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let failure = FileOperationError.lastError(path: temporary, operation: "close")
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, path) == 0 else {
            let failure = FileOperationError.lastError(path: path, operation: "move into place")
            unlink(temporary)
            throw failure
        }
        try syncDirectory(atPath: directory)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FileOperationError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .lastError(path: path, operation: "write")
            }
            offset += written
        }
    }

    /// Makes a rename in `path` durable: without this a crash can forget the new name.
    private static func syncDirectory(atPath path: String) throws(FileOperationError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .lastError(path: path, operation: "open") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .lastError(path: path, operation: "flush to disk") }
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
