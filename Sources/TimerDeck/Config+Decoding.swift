import TOMLKit

extension Config {
    /// Reads and validates the config file at `path`.
    public static func load(from path: String) throws(ConfigError) -> Config {
        let text: String
        do {
            text = try InputFile.read(path, role: "config file")
        } catch {
            throw ConfigError(message: error.message)
        }
        return try parse(text, source: path)
    }

    /// Parses and validates config text; every field is optional and unknown fields are errors.
    ///
    /// TOMLKit's decoder reads the sections; each value is then checked against its entry in ``fields``.
    public static func parse(_ text: String, source: String = "config") throws(ConfigError) -> Config {
        try checkCharacters(text, source: source)
        let sections: [String: [String: ConfigValue]]
        do {
            sections = try TOMLDecoder().decode([String: [String: ConfigValue]].self, from: text)
        } catch let error as TOMLParseError {
            throw ConfigError(message: "\(source):\(error.source.begin.line): \(error.description)")
        } catch let error as DecodingError {
            throw ConfigError(message: "\(source): \(misplacedValue(error)) is not a section; every field belongs in one (known: \(knownSections))")
        } catch {
            throw ConfigError(message: "\(source): \(error)")
        }
        var config = Config()
        for (section, values) in sections.sorted(by: { $0.key < $1.key }) {
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                let key = "\(section).\(name)"
                guard let field = fieldsByKey[key] else {
                    throw ConfigError(message: "\(source): unknown field \(UserText.quote(key)) (known: \(fields.map(\.key).joined(separator: ", ")))")
                }
                try field.apply(value, to: &config, source: source)
            }
        }
        return config
    }

    /// Checks a command-line frames-per-second value (decisions.md 13).
    public static func validateFPS(_ text: String) throws(ConfigError) -> Int {
        guard let fps = Int(text), fpsRange.contains(fps) else {
            throw ConfigError(message: "option --fps: \(UserText.quote(text)) is invalid (accepted: an integer \(fpsRange.lowerBound)…\(fpsRange.upperBound))")
        }
        return fps
    }

    /// Refuses a NUL byte anywhere, and a non-ASCII character outside a quoted string or comment:
    /// section and field names are ASCII, and TOMLKit's parser (toml++) asserts on some non-ASCII
    /// keys instead of reporting them. A multi-line string counts as outside, which no field needs.
    private static func checkCharacters(_ text: String, source: String) throws(ConfigError) {
        // Lines as TOML counts them: LF or CRLF only (a form feed is not a line end there).
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            if line.contains("\0") {
                throw ConfigError(message: "\(source):\(index + 1): contains a NUL byte; a config file is plain UTF-8 text")
            }
            try checkHeaderStart(line, at: "\(source):\(index + 1)")
            var quote: Character?
            var escaped = false
            for character in line {
                if let open = quote {
                    if escaped {
                        escaped = false
                    } else if open == "\"" && character == "\\" {
                        escaped = true
                    } else if character == open {
                        quote = nil
                    }
                } else if character == "#" {
                    break
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if !character.isASCII {
                    throw ConfigError(message: "\(source):\(index + 1): \(UserText.quote(String(character))) outside a quoted string; section and field names are plain ASCII")
                }
            }
        }
    }

    /// Refuses a table header whose name starts with a character no key can start with (`[=x]`):
    /// toml++ checks that character with an assertion, not an error, in its header parser.
    private static func checkHeaderStart(_ line: Substring, at place: String) throws(ConfigError) {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var rest = line.drop(while: blank)
        guard rest.first == "[" else { return }
        rest = rest.dropFirst().drop(while: blank)
        if rest.first == "[" { rest = rest.dropFirst().drop(while: blank) }
        guard let first = rest.first else {
            throw ConfigError(message: "\(place): a section header needs a name, e.g. [ticker]")
        }
        let startsKey = first.isASCII && (first.isLetter || first.isNumber || first == "_" || first == "-")
        guard startsKey || first == "\"" || first == "'" || first == "]" else {
            throw ConfigError(message: "\(place): a section name cannot start with \(UserText.quote(String(first))); write [section] with letters, digits, _ or -")
        }
    }

    private static var knownSections: String {
        var seen: [Substring] = []
        for field in fields where !seen.contains(field.section) { seen.append(field.section) }
        return seen.map { "[\($0)]" }.joined(separator: ", ")
    }

    /// The top-level key a decoding error is about: a value written outside any `[section]`.
    private static func misplacedValue(_ error: DecodingError) -> String {
        let path: [any CodingKey] = switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context): context.codingPath
        @unknown default: []
        }
        return path.first.map { UserText.quote($0.stringValue) } ?? "a value"
    }
}
