import AppPlatform
import Glibc
import RunLoopKit

/// The file the finished sessions are kept in (``FinishedSession``), a line each, beside the
/// timers file: `$XDG_STATE_HOME/timerdeck/timers.history` by default. Each session is one
/// `O_APPEND` write of a whole line, so a `kill -9` leaves every line whole; past
/// ``maximumBytes`` the file is rewritten (a temporary file renamed over it) with its newest
/// half, so it stays bounded.
///
/// ```swift
/// let history = SessionHistoryFile(path: "/home/me/.local/state/timerdeck/timers.history")
/// history.append(session)
/// ```
final class SessionHistoryFile {
    /// Where it is.
    let path: String
    /// The most it holds before its older half goes.
    let maximumBytes: Int

    /// The history beside the timers file at `statePath`: `timers.history` for `timers.state`.
    convenience init(besideStateFile statePath: String) {
        let base = statePath.hasSuffix(".state") ? String(statePath.dropLast(".state".count)) : statePath
        self.init(path: base + ".history")
    }

    init(path: String, maximumBytes: Int = 1 << 20) {
        self.path = path
        self.maximumBytes = maximumBytes
    }

    /// Adds `session` at the end; returns what went wrong, for the status bar.
    func append(_ session: FinishedSession) -> String? {
        do throws(FileError) {
            let directory = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            if !directory.isEmpty { try FileIO.createDirectory(atPath: directory) }
            let descriptor = try FileIO.open(path, flags: O_WRONLY | O_CREAT | O_APPEND)
            defer { close(descriptor) }
            try FileIO.writeAll(Array((session.line + "\n").utf8), to: descriptor, path: path)
            var status = stat()
            if fstat(descriptor, &status) == 0, Int(status.st_size) > maximumBytes { try keepNewestHalf() }
            return nil
        } catch {
            return "the history of finished timers was not written: \(error.reason)"
        }
    }

    /// Rewrites the file with its newest lines that fit in half of ``maximumBytes``.
    private func keepNewestHalf() throws(FileError) {
        let lines = try FileIO.read(atPath: path).split(separator: UInt8(ascii: "\n"))
        var kept: [ArraySlice<UInt8>] = []
        var size = 0
        for line in lines.reversed() {
            size += line.count + 1
            if size > maximumBytes / 2 { break }
            kept.append(line)
        }
        try FileIO.replace(atPath: path, with: kept.reversed().flatMap { Array($0) + [UInt8(ascii: "\n")] })
    }

    /// The sessions the file keeps, oldest first, and how many of its lines were not sessions;
    /// none for a missing file.
    /// - Throws: ``FileError`` when it exists but cannot be read.
    func sessions() throws(FileError) -> (sessions: [FinishedSession], unreadable: Int) {
        guard access(path, F_OK) == 0 else { return ([], 0) }
        let text = String(decoding: try FileIO.read(atPath: path), as: UTF8.self)
        var sessions: [FinishedSession] = []
        var unreadable = 0
        for line in text.split(separator: "\n") {
            if let session = FinishedSession(line: line) { sessions.append(session) } else { unreadable += 1 }
        }
        return (sessions, unreadable)
    }
}
