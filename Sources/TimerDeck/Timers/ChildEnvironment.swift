import AppPlatform
import Glibc
import Synchronization

/// The environment every child of timerdeck starts with (hooks, desktop notifications, the hooks'
/// watcher): this process's, built afresh at each start, without the uploads' credentials.
///
/// A bearer token's variable is taken out of the environment once (``take(_:)``); the files of
/// the other credentials are named with ``withholdContents(of:)``. A child then gets neither the
/// variable nor any other whose value holds a credential: the token, or a password or token
/// file's text as it is at the child's start.
///
/// ```swift
/// let token = ChildEnvironment.take("MYTOK")   // the value; MYTOK is gone from the environment
/// let variables = ChildEnvironment.variables(adding: ["TIMERDECK_TIMER": "tea"])
/// ```
package enum ChildEnvironment {
    private struct Withheld {
        /// Variables taken out, with the value each had (`nil` when it was not set).
        var taken: [String: String?] = [:]
        /// Files whose text no child sees.
        var files: Set<String> = []
    }

    private static let withheld = Mutex(Withheld())

    /// Takes the variable `name` out of this process's environment and returns its value (`nil`
    /// when unset or empty); a second call returns the value the first took. No child started
    /// later gets the variable, or another holding the same value. Call it before other threads
    /// can read the environment.
    package static func take(_ name: String) -> String? {
        withheld.withLock { withheld in
            if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty {
                withheld.taken[name] = value
                unsetenv(name)
                return value
            }
            unsetenv(name)
            if let earlier = withheld.taken[name] { return earlier }
            withheld.taken[name] = String?.none
            return nil
        }
    }

    /// No child started from now on gets a variable whose value holds the text of the file at
    /// `path` (without its surrounding white space), read again at each start.
    package static func withholdContents(of path: String) {
        _ = withheld.withLock { $0.files.insert(path) }
    }

    /// The environment of a child started now, as `NAME=value` strings sorted by name: this
    /// process's variables and then `additions`, which replace a variable of the same name,
    /// without any withheld variable or credential.
    package static func variables(adding additions: [String: String] = [:]) -> [String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        variables.merge(additions) { _, new in new }
        let (names, tokens, files) = withheld.withLock { withheld in
            (Set(withheld.taken.keys), withheld.taken.values.compactMap { $0 }, withheld.files)
        }
        let secrets = tokens + files.compactMap(text(of:))
        return
            variables
            .filter { name, value in !names.contains(name) && !secrets.contains { holds(value, $0) } }
            .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// Whether `value` gives `secret` away: it is the secret, or contains one long enough that it
    /// cannot be there by chance.
    private static func holds(_ value: String, _ secret: String) -> Bool {
        value == secret || (secret.utf8.count >= 8 && value.contains(secret))
    }

    /// The text of the secret file at `path` without its surrounding white space, as the uploads
    /// read it; `nil` when it cannot be read or is empty. An unreadable file holds nothing to keep
    /// from a child; the uploads report it themselves, naming the option.
    private static func text(of path: String) -> String? {
        guard let bytes = try? FileIO.read(atPath: path) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhiteSpace
        return text.isEmpty ? nil : text
    }
}

extension String {
    /// The text without white space and newlines at either end.
    fileprivate var trimmingWhiteSpace: String {
        var characters = Substring(self)
        while characters.first?.isWhitespace == true { characters.removeFirst() }
        while characters.last?.isWhitespace == true { characters.removeLast() }
        return String(characters)
    }
}
