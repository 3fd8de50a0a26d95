import Glibc

/// A text file written line by line (a trace, a recorded session): created or truncated at open;
/// the first write error is kept and the file is left as it was written up to there.
final class LineFile {
    private let descriptor: Int32
    /// The path, for messages.
    let path: String
    /// The first write error, if any.
    private(set) var failure: String?

    /// Creates (or truncates) `path`; `role` names the file in the message ("trace file"). With
    /// `exclusive`, a file already there is left alone and refused.
    init(path: String, role: String, exclusive: Bool = false) throws(TraceFileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | (exclusive ? O_EXCL : O_TRUNC) | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceFileError(
                message: "\(role) \(UserText.quote(path)): \(String(cString: strerror(errno))) "
                    + "(give a path in a directory you can write to)")
        }
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Appends `line` and a newline.
    func write(_ line: String) {
        guard failure == nil else { return }
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                failure = "\(UserText.quote(path)): \(String(cString: strerror(errno)))"
                return
            }
            offset += written
        }
    }
}
