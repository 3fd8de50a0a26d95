import TOMLKit

extension Config {
    /// Reads and validates the config file at `path`.
    package static func load(from path: String) throws(ConfigError) -> Config {
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
    package static func parse(_ text: String, source: String = "config") throws(ConfigError) -> Config {
        // A UTF-8 byte order mark, as some editors write, is no part of the text.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        try ConfigLines.check(text, source: source)
        let sections: [String: ConfigSection]
        do {
            sections = try TOMLDecoder().decode([String: ConfigSection].self, from: text)
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
        for (section, entry) in sections.sorted(by: { $0.key < $1.key }) {
            let values: [String: ConfigValue]
            switch entry {
            case .table(let table) where section == "keys":
                config.keys = try keyBindings(table, source: source)
                continue
            case .table(let table): values = table
            case .tables(let tables) where section == "timers":
                config.timers = try tables.map { table throws(ConfigError) in try timer(table, source: source) }
                continue
            case .tables:
                throw ConfigError(
                    message: "\(source): [[\(section)]] is not a list of tables; only [[timers]] is (known sections: "
                        + "\(knownSections))")
            }
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                let key = "\(section).\(name)"
                if let destination = movedFields[key] {
                    throw ConfigError(
                        message: "\(source): field \(UserText.quote(key)) has moved: set \(destination) "
                            + "(Resources/timerdeck.toml shows them)")
                }
                guard let field = fieldsByKey[key] else {
                    throw ConfigError(
                        message:
                            "\(source): unknown field \(UserText.quote(key)) (known: \(fields.map(\.key).joined(separator: ", ")))"
                    )
                }
                try field.apply(value, to: &config, source: source)
            }
        }
        try checkTimers(config.timers, source: source)
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
    package static func validateFPS(_ text: String) throws(ConfigError) -> Int {
        guard let fps = Int(text), fpsRange.contains(fps) else {
            throw ConfigError(
                message:
                    "option --fps: \(UserText.quote(text)) is invalid (accepted: an integer \(fpsRange.lowerBound)…\(fpsRange.upperBound))"
            )
        }
        return fps
    }

    /// One `[[timers]]` table, checked field by field and as a whole; errors name the timer (after
    /// `source` and a colon, unless `source` is empty).
    static func timer(_ table: [String: ConfigValue], source: String) throws(ConfigError) -> TimerDefinition {
        var timer = TimerDefinition()
        let place = source.isEmpty ? "" : source + ": "
        let label: String
        if case .text(let name) = table["name"] {
            label = "\(place)timer \(UserText.quote(name))"
        } else {
            label = "\(place)a [[timers]] table without a name"
        }
        for (name, value) in table.sorted(by: { $0.key < $1.key }) {
            guard let field = TimerDefinition.fieldsByKey["timers.\(name)"] else {
                throw ConfigError(
                    message: "\(label): unknown field \(UserText.quote("timers.\(name)")) (known: "
                        + "\(TimerDefinition.fields.map(\.key).joined(separator: ", ")))")
            }
            try field.apply(value, to: &timer, source: label)
        }
        if let problem = timer.problem ?? timer.ignoredField(among: Set(table.keys)) {
            throw ConfigError(message: "\(label): \(problem)")
        }
        return timer
    }

    /// Two timers with one name could not be told apart in the log; the panels a timer drives take
    /// one each (the SMS panel four), and the upload pipeline needs both of its jobs.
    private static func checkTimers(_ timers: [TimerDefinition], source: String) throws(ConfigError) {
        var seen = Set<String>()
        for timer in timers where !seen.insert(timer.name).inserted {
            throw ConfigError(
                message: "\(source): timer \(UserText.quote(timer.name)): field 'timers.name' is already used by "
                    + "another timer above (accepted: a name no other timer has)")
        }
        for drives in TimerDefinition.Drives.allCases where drives != .log {
            let count = timers.filter { $0.drives == drives }.count
            let most = drives == .countdown ? DashboardLayout.countdownRows : 1
            guard count <= most else {
                throw ConfigError(
                    message:
                        "\(source): \(count) timers have drives = \"\(drives.rawValue)\" (accepted: at most \(most); "
                        + "set drives = \"log\" on the others)")
            }
        }
        let jobs = timers.filter { $0.drives.isUploadJob }
        if jobs.count == 1, let job = jobs.first {
            let missing = job.drives == .samples ? "uploads" : "samples"
            throw ConfigError(
                message: "\(source): timer \(UserText.quote(job.name)) drives the upload pipeline's "
                    + "\(job.drives.rawValue), but no timer has drives = \"\(missing)\" (accepted: both jobs, or neither)"
            )
        }
    }

    private static var knownSections: String {
        var seen: [Substring] = []
        for field in fields where !seen.contains(field.section) { seen.append(field.section) }
        return seen.map { "[\($0)]" }.joined(separator: ", ") + ", [[timers]]"
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
