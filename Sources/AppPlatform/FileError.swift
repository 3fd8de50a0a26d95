import Glibc

/// A file call of the platform layer that failed: the path, what was being done, and `errno`.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path the call was about.
    public let path: String
    /// What was being done, in words: "create the directory", "write".
    public let operation: String
    /// The `errno` value.
    public let code: Int32

    /// A failure of `operation` on `path` with error number `code`.
    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    /// The system's text for ``code``, e.g. "Permission denied".
    public var reason: String { String(cString: strerror(code)) }

    /// "cannot write /path: No space left on device".
    public var description: String { "cannot \(operation) \(path): \(reason)" }
}
