import AppPlatform
import Glibc
import RunLoopKit

extension DashboardDriver {
    /// Writes `text`, what `export` names (the defined timers' config, a stopwatch's laps as CSV),
    /// to `path` (`~/` is the home directory) and says how it went in the status bar. An existing
    /// file is replaced only with `overwrite`, and whole: otherwise the state asks first, and says so
    /// when the file is the running config.
    func write(_ export: Export, _ text: String, to path: String, overwrite: Bool) {
        let path = Self.expandingHome(path)
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            send(.notice("could not write \(export.what): \(UserText.quote(path)) is a directory; name a file in it"))
            return
        }
        if !overwrite && stat(path, &info) == 0 {
            send(.fileExists(export, path: path, isRunningConfig: isRunningConfig(info)))
            return
        }
        // Written beside it and renamed over it: a failure leaves the file that was there whole.
        do {
            try FileIO.replace(atPath: path, with: Array(text.utf8), mode: 0o644)
            let use = export == .timers ? "; use it with --config" : ""
            send(.notice("wrote \(export.what) to \(UserText.quote(path))\(use)"))
        } catch {
            send(
                .notice(
                    "could not write \(export.what) to \(UserText.quote(path)): \(error.reason); nothing there was changed"
                ))
        }
    }

    /// `path` with a leading `~/` (or a lone `~`) replaced by `$HOME`, as a shell would.
    static func expandingHome(_ path: String, home: String? = getenv("HOME").map { String(cString: $0) }) -> String {
        guard let home, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    /// Whether the file `info` describes is the config this session was started with.
    private func isRunningConfig(_ info: stat) -> Bool {
        var running = stat()
        guard let configPath, stat(configPath, &running) == 0 else { return false }
        return running.st_dev == info.st_dev && running.st_ino == info.st_ino
    }
}
