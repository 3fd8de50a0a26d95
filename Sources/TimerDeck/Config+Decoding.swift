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
        try ConfigLines.check(text, source: source)
        let sections: [String: [String: ConfigValue]]
        do {
            sections = try TOMLDecoder().decode([String: [String: ConfigValue]].self, from: text)
        } catch let error as TOMLParseError {
            throw ConfigError(message: "\(source):\(error.source.begin.line): \(error.description)")
        } catch let error as DecodingError {
            throw ConfigError(
                message:
                    "\(source): \(misplacedValue(error)) is not a section; every field belongs in one (known: \(knownSections))"
            )
        } catch {
            throw ConfigError(message: "\(source): \(error)")
        }
        var config = Config()
        for (section, values) in sections.sorted(by: { $0.key < $1.key }) {
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                let key = "\(section).\(name)"
                guard let field = fieldsByKey[key] else {
                    throw ConfigError(
                        message:
                            "\(source): unknown field \(UserText.quote(key)) (known: \(fields.map(\.key).joined(separator: ", ")))"
                    )
                }
                try field.apply(value, to: &config, source: source)
            }
        }
        let retry = config.uploads.pipeline.retry
        guard retry.base <= retry.cap else {
            throw ConfigError(
                message: "\(source): uploads.retry_base (\(DurationText.setting(retry.base))) is longer than "
                    + "uploads.retry_cap (\(DurationText.setting(retry.cap))); the first retry cannot wait longer than the longest, "
                    + "so lower retry_base or raise retry_cap")
        }
        return config
    }

    /// Checks a command-line frames-per-second value (decisions.md 13).
    public static func validateFPS(_ text: String) throws(ConfigError) -> Int {
        guard let fps = Int(text), fpsRange.contains(fps) else {
            throw ConfigError(
                message:
                    "option --fps: \(UserText.quote(text)) is invalid (accepted: an integer \(fpsRange.lowerBound)…\(fpsRange.upperBound))"
            )
        }
        return fps
    }

    private static var knownSections: String {
        var seen: [Substring] = []
        for field in fields where !seen.contains(field.section) { seen.append(field.section) }
        return seen.map { "[\($0)]" }.joined(separator: ", ")
    }

    /// The top-level key a decoding error is about: a value written outside any `[section]`.
    private static func misplacedValue(_ error: DecodingError) -> String {
        let path: [any CodingKey] =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                context.codingPath
            @unknown default: []
            }
        return path.first.map { UserText.quote($0.stringValue) } ?? "a value"
    }
}
