import AppPlatform
import Glibc
import RunLoopKit

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
        do {
            descriptor = try FileIO.open(path, flags: O_WRONLY | O_CREAT | (exclusive ? O_EXCL : O_TRUNC), mode: 0o644)
        } catch {
            throw TraceFileError(
                message: "\(role) \(UserText.quote(path)): \(error.reason) (\(Self.remedy(error.code)))")
        }
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Appends `line` and a newline.
    func write(_ line: String) {
        guard failure == nil else { return }
        do {
            try FileIO.writeAll(Array((line + "\n").utf8), to: descriptor, path: path)
        } catch {
            failure = "\(UserText.quote(path)): \(error.reason) (\(Self.remedy(error.code)))"
        }
    }

    /// What the user can do about error `code`.
    private static func remedy(_ code: Int32) -> String {
        switch code {
        case EMFILE, ENFILE: "too many files are open: close some, or raise the limit with ulimit -n"
        case ENOSPC, EDQUOT: "free some space on that disk, or give a path on another"
        case EEXIST: "it is left as it is: name another file"
        default: "give a path in a directory you can write to"
        }
    }
}
