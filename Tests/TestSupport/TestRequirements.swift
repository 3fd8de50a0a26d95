import Foundation
import Glibc

/// What the tests take from Debian, as `Tests/requirements.txt` lists it (the list `./test.sh`
/// installs from).
///
/// A test finds every program it starts and every library it needs here: one the list does not
/// name fails the test, so the list cannot fall behind the tests, and one listed but missing from
/// the machine fails it with the package to install.
public enum TestRequirements {
    /// The list, relative to the repository's root.
    public static let listPath = "Tests/requirements.txt"

    /// One line of the list.
    struct Entry {
        /// What the line names.
        enum Kind: String {
            /// A program on `PATH`.
            case command
            /// A shared library, by its soname.
            case library
            /// The package itself, for the build.
            case build
        }

        /// The Debian package.
        let package: String
        let kind: Kind
        /// The command, the soname or what the build takes from the package.
        let name: String
    }

    /// A requirement not listed, listed but missing from the machine, or a list that cannot be read.
    public struct Unmet: Error, CustomStringConvertible {
        public let description: String
    }

    /// Every entry of the list; each line must say what needs it, after the name.
    static func entries() throws -> [Entry] {
        let path = RepositoryFile.path(listPath)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Unmet(description: "cannot read the test requirements list \(path)")
        }
        var entries: [Entry] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(maxSplits: 3, whereSeparator: \.isWhitespace)
            if fields.isEmpty || fields[0].hasPrefix("#") { continue }
            guard fields.count == 4, let kind = Entry.Kind(rawValue: String(fields[1])) else {
                throw Unmet(description: "\(listPath):\(number + 1): expected package, kind, name and why: \(line)")
            }
            entries.append(Entry(package: String(fields[0]), kind: kind, name: String(fields[2])))
        }
        return entries
    }

    /// The path of the command `program`, a name (`tmux`, found on `PATH`) or a path
    /// (`/usr/bin/htpasswd`, listed under its last component).
    ///
    /// - Throws: ``Unmet`` when the list does not name it, or when it is not installed.
    public static func command(_ program: String) throws -> String {
        let name = String(program.split(separator: "/").last ?? Substring(program))
        let entry = try listed(name, .command)
        let candidates =
            program.contains("/")
            ? [program]
            : (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map {
                "\($0)/\(name)"
            }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw missing(entry)
        }
        return found
    }

    /// Each of `names` (``command(_:)``): the programs a script the test runs calls in turn.
    public static func commands(_ names: String...) throws {
        for name in names { _ = try command(name) }
    }

    /// Checks that the shared library `soname` (`libev.so.4`) is listed and that the dynamic loader
    /// finds it.
    ///
    /// - Throws: ``Unmet`` when the list does not name it, or when it is not installed.
    public static func library(_ soname: String) throws {
        let entry = try listed(soname, .library)
        guard let handle = dlopen(soname, RTLD_LAZY | RTLD_LOCAL) else { throw missing(entry) }
        dlclose(handle)
    }

    /// The entry naming `name` as a `kind`.
    private static func listed(_ name: String, _ kind: Entry.Kind) throws -> Entry {
        guard let entry = try entries().first(where: { $0.kind == kind && $0.name == name }) else {
            throw Unmet(description: "\(name) is not in the test requirements list (\(listPath))")
        }
        return entry
    }

    private static func missing(_ entry: Entry) -> Unmet {
        Unmet(
            description:
                "\(entry.name) is not installed: apt-get install \(entry.package) (./test.sh installs what \(listPath) lists)"
        )
    }
}
