import Foundation
import RunLoopKit

// The platform layer is a module of the dashboard's package, and compiled into this one where these
// helpers are built by the benchmark's package (which sees the repository's products only).
#if canImport(AppPlatform)
import AppPlatform
#endif

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when the value is released.
public final class ScratchDirectory {
    /// The directory.
    public let url: URL

    /// Creates the directory; `prefix` starts its name, to tell whose it is when one is left behind.
    public init(prefix: String = "timerdeck-tests") throws {
        url = URL(fileURLWithPath: try FileIO.makeTemporaryDirectory(prefix: prefix), isDirectory: true)
    }

    /// A path inside the directory (nothing is created).
    public func path(_ relative: String) -> URL {
        url.appendingPathComponent(relative)
    }

    /// Writes `text` to `relative` inside the directory and returns its path.
    @discardableResult
    public func write(_ text: String, to relative: String) throws -> String {
        let file = path(relative)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
