/// `--laps FILE`: the laps of every stopwatch as CSV, written when the session ends. The file is
/// created at the start and only if it does not exist yet, so a file of the user's is never
/// overwritten.
///
/// ```swift
/// let laps = try LapsFile(path: "laps.csv")
/// driver.laps = laps
/// ```
package final class LapsFile {
    private let file: LineFile

    /// The first write error, if any (the exit report says so).
    package var failure: String? { file.failure.map { "laps file " + $0 } }

    /// Creates `path`; one that exists is refused and left as it is.
    package init(path: String) throws(TraceFileError) {
        file = try LineFile(path: path, role: "laps file", exclusive: true)
    }

    /// Writes the laps' CSV (`text` ends with a newline).
    func write(_ text: String) {
        file.write(String(text.dropLast()))
    }
}
