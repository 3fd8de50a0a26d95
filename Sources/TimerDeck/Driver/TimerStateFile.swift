import AppPlatform
import Glibc
import KeptTimers
import RunLoopKit
import Uploads

/// The file the running and paused countdowns, alarms and stopwatches are kept in
/// (``SavedTimers``), `$XDG_STATE_HOME/timerdeck/timers.state` by default, beside the outbox.
///
/// Each save writes a temporary file beside it, flushes it to the disk (`fsync`), renames it over
/// the old one and flushes the directory: a process killed at any point (`kill -9`) leaves either
/// the old file or the new one, whole, so no timer is lost or doubled. A file that cannot be read
/// as one is reported and kept aside under another name, never overwritten.
///
/// ```swift
/// let file = TimerStateFile(path: "/home/me/.local/state/timerdeck/timers.state")
/// let (saved, notice) = file.load()
/// ```
package final class TimerStateFile {
    /// Where it is.
    package let path: String
    /// What the last save left unsaid: the first failure, once.
    private var failed = false
    /// This process's hold on the file (``claim()``), for as long as the file is kept.
    private var lock: FileLock?

    /// The state file at `path` (its directory is made, mode 0700, at the first save).
    package init(path: String) {
        self.path = path
    }

    /// Makes this process the one that keeps timers in the file, before anything else is opened: a
    /// second dashboard on the same file would save over the first one's timers, so it is refused,
    /// naming the process that has the file (the lock beside it, `timers.state.lock`, as the
    /// outbox's). The kernel lets go of it when the process ends, however it ends.
    ///
    /// - Throws: ``TimerStateFileError`` naming the holder and what to do.
    package func claim() throws(TimerStateFileError) {
        do {
            if !directory.isEmpty, access(directory, F_OK) != 0 { try FileIO.createDirectory(atPath: directory) }
        } catch {
            throw TimerStateFileError(
                message: "cannot keep the timers in \(UserText.quote(path)): \(error.reason) (use --state PATH)")
        }
        do {
            lock = try FileLock(guarding: path)
        } catch {
            switch error {
            case .inUse(let holder):
                throw TimerStateFileError(
                    message: "the timers file \(UserText.quote(path)) is kept by another timerdeck"
                        + (holder.map { " (process \($0))" } ?? "")
                        + "; one dashboard keeps one timers file. Quit that one first (its timers are saved as it "
                        + "quits), or give this one a file of its own with --state PATH")
            case .cannotLock(let reason):
                throw TimerStateFileError(
                    message: "cannot keep the timers in \(UserText.quote(path)): \(reason) (use --state PATH)")
            }
        }
    }

    /// `$XDG_STATE_HOME/timerdeck/timers.state`, or `~/.local/state/timerdeck/timers.state`: in the
    /// state directory, beside the outbox.
    package static var defaultPath: String {
        StateDirectory.url().appendingPathComponent(TimerFileText.fileName).path
    }

    /// The timers it keeps, and what to say about it: `nil` and nothing for a missing file; for a
    /// corrupt one, or one a newer timerdeck wrote, nothing kept and where it was put aside.
    func load() -> (SavedTimers?, notice: String?) {
        guard let text = TimerFileText.contents(ofFileAt: path) else { return (nil, nil) }
        if let saved = SavedTimers(text: text) { return (saved, nil) }
        if let format = TimerFileText.newerFormat(of: text) {
            let formats = "its format \(format), this one reads \(TimerFileText.format) and older"
            return setAside(as: "newer", saying: "the timers file is from a newer timerdeck (\(formats))")
        }
        return setAside(as: "corrupt", saying: "the timers file was corrupt")
    }

    /// The timers the file keeps, read as they are, for `timerdeck status`: nothing is claimed,
    /// set aside or written. `nil` for a missing file.
    /// - Throws: ``TimerStateFileError`` for a file that is not a state file, or is from a newer timerdeck.
    func peek() throws(TimerStateFileError) -> SavedTimers? {
        guard let text = TimerFileText.contents(ofFileAt: path) else { return nil }
        if let saved = SavedTimers(text: text) { return saved }
        if let format = TimerFileText.newerFormat(of: text) {
            throw TimerStateFileError(
                message: "\(UserText.quote(path)) is from a newer timerdeck (its format \(format), this one reads "
                    + "\(TimerFileText.format) and older): run that timerdeck's status")
        }
        throw TimerStateFileError(
            message: "\(UserText.quote(path)) is not a timers file: the dashboard keeps it aside at its next start")
    }

    /// For `--fresh`: puts the saved timers aside, beside the new file, and says where; nothing
    /// for a missing file.
    func setAsideForFreshStart() -> String? {
        guard access(path, F_OK) == 0 else { return nil }
        return setAside(as: "before-fresh", saying: "--fresh: the saved timers were set aside").notice
    }

    /// Renames the file to `<path>.<suffix>` (or `.<suffix>-2`, … the first that is free), so that
    /// nothing overwrites it, and says so after `what`.
    private func setAside(as suffix: String, saying what: String) -> (SavedTimers?, notice: String?) {
        var aside = path + "." + suffix
        var number = 1
        while access(aside, F_OK) == 0 {
            number += 1
            aside = path + ".\(suffix)-\(number)"
        }
        guard rename(path, aside) == 0 else {
            return (nil, "\(what), and \(UserText.quote(path)) could not be put aside: \(Self.error)")
        }
        return (nil, "\(what): kept aside as \(UserText.quote(aside)); starting without it")
    }

    /// Writes `saved` atomically; returns what went wrong the first time it does, else `nil`.
    func save(_ saved: SavedTimers) -> String? {
        let problem = write(saved.text)
        defer { failed = problem != nil }
        return failed ? nil : problem.map { "could not keep the timers in \(UserText.quote(path)): \($0)" }
    }

    /// The directory the file is in.
    private var directory: String { path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "." }

    private func write(_ text: String) -> String? {
        do {
            if !directory.isEmpty, access(directory, F_OK) != 0 { try FileIO.createDirectory(atPath: directory) }
            try FileIO.replace(atPath: path, with: Array(text.utf8), mode: 0o600)
            return nil
        } catch {
            return error.reason
        }
    }

    private static var error: String { String(cString: strerror(errno)) }
}
