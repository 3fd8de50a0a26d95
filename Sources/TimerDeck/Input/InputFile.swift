import Glibc

/// Reads a file the user names on the command line (a config file, a headless script) without
/// Foundation, and refuses what cannot be one: a directory, something that cannot be opened, a
/// file larger than ``maximumBytes``, text that is not UTF-8.
package enum InputFile {
    /// The largest file accepted; a config file or a script is a few hundred bytes.
    package static let maximumBytes = 1 << 20

    /// The UTF-8 text of the file at `path`; `role` ("config file", "script") names it in errors.
    package static func read(_ path: String, role: String) throws(InputFileError) -> String {
        let shown = UserText.quote(path)
        let descriptor = try open(path, role: role)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw InputFileError(message: "cannot read \(role) \(shown): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
            guard bytes.count <= maximumBytes else {
                throw InputFileError(
                    message: "\(role) \(shown) is larger than \(maximumBytes / 1_024) KiB, the most accepted")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputFileError(message: "\(role) \(shown) is not UTF-8 text")
        }
        return text
    }

    /// The lines of the file at `path`, read as they are consumed, of any length and number (a
    /// trace grows by the minute); `role` names it in errors. Bytes that are not UTF-8 become U+FFFD.
    package static func lines(_ path: String, role: String) throws(InputFileError) -> FileLines {
        let descriptor = try open(path, role: role)
        guard let file = fdopen(descriptor, "r") else {
            close(descriptor)
            throw InputFileError(
                message: "cannot read \(role) \(UserText.quote(path)): \(String(cString: strerror(errno)))")
        }
        return FileLines(file: file)
    }

    /// Opens `path` for reading, refusing a directory.
    private static func open(_ path: String, role: String) throws(InputFileError) -> Int32 {
        let shown = UserText.quote(path)
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InputFileError(message: "cannot read \(role) \(shown): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw InputFileError(message: "cannot read \(role) \(shown): \(reason)")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            close(descriptor)
            throw InputFileError(message: "\(role) \(shown) is a directory; give the path of a file in it")
        }
        return descriptor
    }
}
