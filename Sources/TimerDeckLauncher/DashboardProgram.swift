import Glibc

/// The dashboard's program, `timerdeck`: in `PREFIX/libexec/timerdeck` when this one is installed
/// as `PREFIX/bin/timerdeck`, or beside this one in a build (`.build/release/timerdeck`).
enum DashboardProgram {
    /// Replaces this process with the dashboard's program, given this one's arguments (so the
    /// process keeps its id, its name in `ps` and its signals); if it cannot, says why and exits 1.
    static func replaceThisProcess() -> Never {
        guard let directory = directoryOfThisProgram else {
            fail("cannot find the dashboard's program: /proc/self/exe cannot be read (\(reason))")
        }
        let candidates = [directory + "/../libexec/timerdeck/timerdeck", directory + "/timerdeck"]
        for path in candidates where access(path, X_OK) == 0 && !isThisProgram(path) {
            execv(path, CommandLine.unsafeArgv)
            fail("cannot start \(path): \(reason)")
        }
        fail(
            "the dashboard's program is missing: looked for " + candidates.joined(separator: " and ")
                + "; install again with ./install.sh PREFIX, or build it with swift build --product timerdeck")
    }

    /// The directory this program's file is in, from `/proc/self/exe` (links resolved).
    private static var directoryOfThisProgram: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.lastIndex(of: "/").map { String(path[..<$0]) }
    }

    /// Whether `path` is this program's own file (installed as `bin/timerdeck`, it is one of the
    /// names looked at), which must not run itself.
    private static func isThisProgram(_ path: String) -> Bool {
        var this = stat()
        var other = stat()
        guard stat("/proc/self/exe", &this) == 0, stat(path, &other) == 0 else { return false }
        return this.st_dev == other.st_dev && this.st_ino == other.st_ino
    }

    /// The last system call's error, in words.
    private static var reason: String { String(cString: strerror(errno)) }

    /// Says `message` on standard error, after `timerdeck: `, and exits 1.
    private static func fail(_ message: String) -> Never {
        let line = "timerdeck: " + message + "\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        exit(1)
    }
}
