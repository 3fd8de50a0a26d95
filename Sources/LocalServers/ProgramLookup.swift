/// How a local server finds a program it starts: its name (`prometheus`, `setpriv`, `python3`) to
/// the path to run, or an error saying why there is none.
///
/// The soak takes ``debianProgram``; the tests pass their requirements list's lookup, so that
/// what the servers start is what the list names.
package typealias ProgramLookup = (String) throws -> String

/// Where Debian installs the program `name`: `/usr/bin/NAME`.
package func debianProgram(_ name: String) -> String {
    "/usr/bin/\(name)"
}
