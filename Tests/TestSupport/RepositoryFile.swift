import Glibc

/// Files of the repository the tests read in place: shipped resources, fixtures, scripts.
public enum RepositoryFile {
    /// The repository's root directory, with a trailing slash. This file's own path with links
    /// resolved, so that the benchmark's package, which compiles it through a link, finds the same root.
    public static let root: String = {
        let compiled = #filePath
        let resolved = realpath(compiled, nil).map { path in
            defer { free(path) }
            return String(cString: path)
        }
        return String((resolved ?? compiled).dropLast("Tests/TestSupport/RepositoryFile.swift".count))
    }()

    /// The absolute path of `relative` (e.g. `Resources/timerdeck.toml`).
    public static func path(_ relative: String) -> String {
        root + relative
    }
}
