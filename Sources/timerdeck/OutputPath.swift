import Glibc

/// A file timerdeck writes (`--outbox`, `--trace`, `--record`), checked before any file is
/// touched: it is not a directory, and its directory exists (timerdeck creates none on a path the
/// user gave).
enum OutputPath {
    /// What is wrong with `path` as the file `option` writes, or `nil` when it can be written there.
    static func problem(_ path: String, option: String) -> String? {
        guard !path.isEmpty else { return "\(option) needs a file name" }
        if isDirectory(path) {
            return
                "\(option) \"\(path)\" is a directory; name a file in it (e.g. \(path)/timerdeck-\(option.dropFirst(2)))"
        }
        let directory = path.lastIndex(of: "/").map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
        switch kind(of: directory) {
        case nil:
            return
                "\(option) \"\(path)\": the directory \(directory) does not exist; create it first (mkdir -p \(directory))"
        case S_IFDIR: return nil
        default: return "\(option) \"\(path)\": \(directory) is not a directory"
        }
    }

    /// What is wrong with `path` as the file `option` writes, which timerdeck does not overwrite
    /// unasked: that it exists. `--force` replaces a trace or a recording; a laps file never.
    static func existing(_ path: String, option: String) -> String? {
        guard kind(of: path) != nil else { return nil }
        let remedy = option == "--laps" ? "remove it first" : "add --force to replace it"
        return "\(option) \"\(path)\" exists; timerdeck does not overwrite it: name another file, or \(remedy)"
    }

    private static func isDirectory(_ path: String) -> Bool {
        kind(of: path) == S_IFDIR
    }

    /// The file type bits of `path` (`S_IFDIR`, `S_IFREG` …), or `nil` when it does not exist.
    private static func kind(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }
}
