import Glibc

/// A file call of the platform layer that failed: the path, what was being done, and `errno`.
package struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path the call was about.
    package let path: String
    /// What was being done, in words: "create the directory", "write".
    package let operation: String
    /// The `errno` value.
    package let code: Int32

    /// A failure of `operation` on `path` with error number `code`.
    package init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// The system's text for ``code``, e.g. "Permission denied".
    package var reason: String { String(cString: strerror(code)) }

    /// "cannot write /path: No space left on device".
    package var description: String { "cannot \(operation) \(path): \(reason)" }
}
