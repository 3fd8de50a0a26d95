import Glibc

/// A failed system call on a path, with the `errno` it set.
struct FileOperationError: Error, Sendable, Equatable {
    /// The path the call was about.
    let path: String
    /// What was being done, in words: "create the directory", "write".
    let operation: String
    /// The `errno` value.
    let code: Int32

    /// The system's text for ``code``, e.g. "Permission denied".
    var reason: String { String(cString: strerror(code)) }

    /// Captures the current `errno` for a call that just failed.
    static func lastError(path: String, operation: String) -> FileOperationError {
        FileOperationError(path: path, operation: operation, code: errno)
    }
}
