import Foundation

/// The executables SwiftPM built next to the running test bundle (`.build/<configuration>/`).
public enum BuiltProduct {
    /// The build directory of the running tests.
    public static let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// The path of the built executable `name` (it may not exist).
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Whether `name` is built; a test that needs it is disabled (with a reason) when it is not.
    public static func isBuilt(_ name: String) -> Bool {
        FileManager.default.isExecutableFile(atPath: path(name))
    }
}
