/// Files of the repository the tests read in place: shipped resources, fixtures, scripts.
public enum RepositoryFile {
    /// The repository's root directory, with a trailing slash.
    public static let root = String(#filePath.dropLast("Tests/TestSupport/RepositoryFile.swift".count))

    /// The absolute path of `relative` (e.g. `Resources/timerdeck.toml`).
    public static func path(_ relative: String) -> String {
        root + relative
    }
}
