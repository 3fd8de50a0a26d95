import AppPlatform
import Glibc
import RunLoopKit

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
        let bytes: [UInt8]
        do {
            bytes = try FileIO.readAll(descriptor, path: path, maximum: maximumBytes)
        } catch {
            throw InputFileError(message: "cannot read \(role) \(shown): \(error.reason)")
        }
        guard bytes.count <= maximumBytes else {
            throw InputFileError(
                message: "\(role) \(shown) is larger than \(maximumBytes / 1_024) KiB, the most accepted")
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
        let descriptor: Int32
        do {
            descriptor = try FileIO.open(path, flags: O_RDONLY)
        } catch {
            throw InputFileError(message: "cannot read \(role) \(shown): \(error.reason)")
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
