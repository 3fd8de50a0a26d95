import KeptTimers
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
        let places = try ConfigLines.check(text, source: source)
        let sections: [String: ConfigSection]
        do {
            sections = try TOMLDecoder().decode([String: ConfigSection].self, from: text)
        } catch let error as TOMLParseError {
            throw ConfigError(message: "\(places.at(error.source.begin.line)): \(error.description)")
        } catch let error as DecodingError {
            let name = misplacedValue(error)
            throw ConfigError(
                message: "\(places.of(name ?? "")): \(name.map(UserText.field) ?? "a value") is not a section; every "
                    + "field belongs in one (known: \(knownSections))")
        } catch {
            throw ConfigError(message: "\(source): \(error)")
        }
        var config = Config()
        config.places = places
        for (section, entry) in sections.sorted(by: { $0.key < $1.key }) {
            let values: [String: ConfigValue]
            switch entry {
            case .table(let table) where section == "keys":
                config.keys = try keyBindings(table, places: places)
                continue
            case .table(let table): values = table
            case .tables(let tables) where section == "timers":
                config.timers = try tables.enumerated().map { index, table throws(ConfigError) in
                    try timer(table, places: places, index: index)
                }
                continue
            case .tables:
                throw ConfigError(
                    message: "\(places.at(places.header(section))): [[\(section)]] is not a list of tables; only "
                        + "[[timers]] is (known sections: \(knownSections))")
            }
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                let key = "\(section).\(name)"
                let place = places.of(key)
                if let destination = movedFields[key] {
                    throw ConfigError(
                        message: "\(place): field \(UserText.field(key)) has moved: set \(destination) "
                            + "(Resources/timerdeck.toml shows them)")
                }
                guard let field = fieldsByKey[key] else {
                    throw ConfigError(message: "\(place): \(unknownField(key, known: fields.map(\.key)))")
                }
                try field.apply(value, to: &config, source: place)
            }
        }
        try checkTimers(config.timers, places: places)
        let retry = config.uploads.pipeline.retry
        guard retry.base <= retry.cap else {
            throw ConfigError(
                message: "\(places.of("uploads.retry_base")): field 'uploads.retry_base' = "
                    + "\"\(DurationText.setting(retry.base))\" is longer than uploads.retry_cap = "
                    + "\"\(DurationText.setting(retry.cap))\"; the first retry cannot wait longer than the longest, "
                    + "so lower retry_base or raise retry_cap")
        }
        return config
    }

    /// What an unknown field `key` is, with the known field closest to it when one is (a typo), and
    /// then all of them.
    static func unknownField(_ key: String, known: [String], kind: String = "field") -> String {
        // A name is compared with the names of its section, so `intervall` is near `interval` however
        // long the section's name; a key of no known section, whole.
        let section = key.prefix { $0 != "." } + "."
        let names = known.filter { $0.hasPrefix(section) }.map { String($0.dropFirst(section.count)) }
        let closest =
            names.isEmpty
            ? UserText.closest(to: key, among: known)
            : UserText.closest(to: String(key.dropFirst(section.count)), among: names).map { section + $0 }
        let guess = closest.map { "; did you mean \(UserText.field($0))?" } ?? ""
        return "unknown \(kind) \(UserText.field(key))\(guess) (known: \(known.joined(separator: ", ")))"
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

    /// One `[[timers]]` table, checked field by field and as a whole; errors name the timer, after
    /// the file and the line of the field when `places` has them (the `index`-th table's).
    static func timer(_ table: [String: ConfigValue], places: ConfigPlaces?, index: Int = 0) throws(ConfigError)
        -> TimerDefinition
    {
        var timer = TimerDefinition()
        /// Where `key` (or the table, for `nil`) is written, then the timer.
        func label(_ key: String? = nil) -> String {
            let place = places.map { "\($0.at($0.line(of: key, table: index, in: "timers"))): " } ?? ""
            if case .text(let name) = table["name"] { return "\(place)timer \(UserText.quote(name))" }
            return "\(place)a [[timers]] table without a name"
        }
        for (name, value) in table.sorted(by: { $0.key < $1.key }) {
            guard let field = TimerDefinition.fieldsByKey["timers.\(name)"] else {
                throw ConfigError(
                    message: "\(label(name)): "
                        + unknownField("timers.\(name)", known: TimerDefinition.fields.map(\.key)))
            }
            try field.apply(value, to: &timer, source: label(name))
        }
        timer.actions.alertByDefault(for: timer, except: Set(table.keys))
        if let problem = timer.problem ?? timer.ignoredField(among: Set(table.keys)) {
            throw ConfigError(message: "\(label(problem.key)): \(problem.message)")
        }
        return timer
    }

    /// Two timers with one name could not be told apart in the log; the panels a timer drives take
    /// one each (the SMS panel four), and the upload pipeline needs both of its jobs.
    private static func checkTimers(_ timers: [TimerDefinition], places: ConfigPlaces) throws(ConfigError) {
        /// Where `key` of the `index`-th timer is written.
        func place(_ key: String, of index: Int) -> String {
            places.at(places.line(of: key, table: index, in: "timers"))
        }
        var seen = Set<String>()
        for (index, timer) in timers.enumerated() where !seen.insert(timer.name).inserted {
            throw ConfigError(
                message: "\(place("name", of: index)): timer \(UserText.quote(timer.name)): field 'timers.name' is "
                    + "already used by another timer above (accepted: a name no other timer has)")
        }
        // Countdowns and stopwatches are as many as wanted (the SMS panel scrolls); one timer drives
        // each other panel.
        for drives in TimerDefinition.Drives.allCases where ![.log, .countdown, .stopwatch].contains(drives) {
            let driving = timers.indices.filter { timers[$0].drives == drives }
            let most = 1
            guard driving.count <= most else {
                throw ConfigError(
                    message:
                        "\(place("drives", of: driving[most])): \(driving.count) timers have drives = "
                        + "\"\(drives.rawValue)\" (accepted: at most \(most); set drives = \"log\" on the others)")
            }
        }
        let jobs = timers.indices.filter { timers[$0].drives.isUploadJob }
        if jobs.count == 1, let index = jobs.first {
            let job = timers[index]
            let missing = job.drives == .samples ? "uploads" : "samples"
            throw ConfigError(
                message: "\(place("drives", of: index)): timer \(UserText.quote(job.name)) drives the upload "
                    + "pipeline's \(job.drives.rawValue), but no timer has drives = \"\(missing)\" (accepted: both "
                    + "jobs, or neither)"
            )
        }
    }

    private static var knownSections: String {
        var seen: [Substring] = []
        for field in fields where !seen.contains(field.section) { seen.append(field.section) }
        return seen.map { "[\($0)]" }.joined(separator: ", ") + ", [[timers]]"
    }

    /// The top-level key a decoding error is about: a value written outside any `[section]`.
    private static func misplacedValue(_ error: DecodingError) -> String? {
        let path: [any CodingKey] =
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
                .dataCorrupted(let context):
                context.codingPath
            @unknown default: []
            }
        return path.first?.stringValue
    }
}
