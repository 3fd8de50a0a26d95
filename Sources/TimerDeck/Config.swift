import RunLoopKit
import TOMLKit
import Uploads

/// The dashboard's settings, read from a TOML file (`Resources/timerdeck.toml` documents every field).
///
/// ```swift
/// var config = try Config.parse(tomlText)
/// config.tickerFPS = 30
/// ```
public struct Config: Equatable, Sendable {
    /// Length of an SMS countdown in seconds (S1).
    public var countdownSeconds = 60
    /// Refresh rate of the ticker's display link in Hz.
    public var tickerFPS = 60
    /// Mode the ticker's display link starts in (M4).
    public var tickerMode: RunLoop.Mode = .default
    /// Quiet period that ends a scroll gesture (decision 7).
    public var gestureQuiet: Duration = .milliseconds(250)
    /// Fire-log entries kept in memory.
    public var logCapacity = 1_000
    /// Whether mouse events are enabled.
    public var mouse = true
    /// The periodic sample-and-upload pipeline (S2).
    public var uploads = UploadsConfig()

    /// The built-in defaults (the same values as the shipped config file).
    public init() {}

    static let countdownRange = 1...3_600
    static let fpsRange = 1...240
    static let logCapacityRange = 10...100_000
    static let quietRange: ClosedRange<Duration> = .milliseconds(1) ... .seconds(10)
    static let sampleIntervalRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(3_600)
    static let uploadIntervalRange: ClosedRange<Duration> = .seconds(1) ... .seconds(86_400)
    static let httpTimeoutRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(300)
    static let flushRange: ClosedRange<Duration> = .zero ... .seconds(60)
    static let retryRange: ClosedRange<Duration> = .milliseconds(100) ... .seconds(86_400)
    static let modeNames: [String: RunLoop.Mode] = ["default": .default, "tracking": .tracking, "common": .common]

    /// Reads and validates the config file at `path`.
    public static func load(from path: String) throws(ConfigError) -> Config {
        guard let text = TextFile.read(path) else {
            throw ConfigError(message: "cannot read config file \(path): no such readable file")
        }
        return try parse(text, source: path)
    }

    /// Parses and validates config text; every field is optional and unknown fields are errors.
    public static func parse(_ text: String, source: String = "config") throws(ConfigError) -> Config {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(message: "\(source):\(error.source.begin.line): \(error.description)")
        } catch {
            throw ConfigError(message: "\(source): \(error)")
        }
        var config = Config()
        var reader = FieldReader(table: table, source: source)
        if let seconds = try reader.integer("countdown.seconds", in: countdownRange) { config.countdownSeconds = seconds }
        if let fps = try reader.integer("ticker.fps", in: fpsRange) { config.tickerFPS = fps }
        if let mode = try reader.mode("ticker.mode") { config.tickerMode = mode }
        if let quiet = try reader.duration("gesture.quiet", in: quietRange) { config.gestureQuiet = quiet }
        if let capacity = try reader.integer("log.capacity", in: logCapacityRange) { config.logCapacity = capacity }
        if let mouse = try reader.boolean("terminal.mouse") { config.mouse = mouse }
        try config.uploads.read(&reader)
        try reader.rejectUnknownFields()
        return config
    }

    /// Checks a command-line frames-per-second value (decisions.md 13).
    public static func validateFPS(_ fps: Int) throws(ConfigError) -> Int {
        guard fpsRange.contains(fps) else {
            throw ConfigError(message: "option --fps: \(fps) is out of range (accepted: \(fpsRange.lowerBound)…\(fpsRange.upperBound))")
        }
        return fps
    }
}

/// A config value that cannot be used; the message names the field, the value and the accepted range.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let message: String

    public var description: String { message }
}

/// Reads `section.key` fields from a TOML table, remembering which were read.
struct FieldReader {
    let table: TOMLTable
    let source: String
    var known: Set<String> = []

    init(table: TOMLTable, source: String) {
        self.table = table
        self.source = source
    }

    private mutating func value(_ field: String) -> TOMLValueConvertible? {
        known.insert(field)
        let parts = field.split(separator: ".").map(String.init)
        return table[parts[0]]?.table?[parts[1]]
    }

    private func fail(_ field: String, _ value: String, _ accepted: String) -> ConfigError {
        ConfigError(message: "\(source): field '\(field)' = \(value) is invalid (accepted: \(accepted))")
    }

    mutating func integer(_ field: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let raw = value(field) else { return nil }
        let accepted = "an integer \(range.lowerBound)…\(range.upperBound)"
        guard let number = raw.int else { throw fail(field, raw.debugDescription, accepted) }
        guard range.contains(number) else { throw fail(field, String(number), accepted) }
        return number
    }

    mutating func boolean(_ field: String) throws(ConfigError) -> Bool? {
        guard let raw = value(field) else { return nil }
        guard let flag = raw.bool else { throw fail(field, raw.debugDescription, "true or false") }
        return flag
    }

    mutating func duration(_ field: String, in range: ClosedRange<Duration>) throws(ConfigError) -> Duration? {
        guard let raw = value(field) else { return nil }
        let accepted = "a duration \(DurationText.format(range.lowerBound))…\(DurationText.format(range.upperBound)), e.g. \"250ms\""
        guard let text = raw.string, let duration = DurationText.parse(text) else {
            throw fail(field, raw.debugDescription, accepted)
        }
        guard range.contains(duration) else { throw fail(field, "\"\(text)\"", accepted) }
        return duration
    }

    mutating func string(_ field: String, accepted: String, _ isValid: (String) -> Bool = { _ in true }) throws(ConfigError) -> String? {
        guard let raw = value(field) else { return nil }
        guard let text = raw.string, isValid(text) else { throw fail(field, raw.debugDescription, accepted) }
        return text
    }

    mutating func mode(_ field: String) throws(ConfigError) -> RunLoop.Mode? {
        guard let raw = value(field) else { return nil }
        guard let name = raw.string, let mode = Config.modeNames[name] else {
            throw fail(field, raw.debugDescription, "\"default\", \"tracking\" or \"common\"")
        }
        return mode
    }

    func rejectUnknownFields() throws(ConfigError) {
        for section in table.keys.sorted() {
            guard let fields = table[section]?.table else {
                throw ConfigError(message: "\(source): '\(section)' is not a known section (known: \(knownSections))")
            }
            for key in fields.keys.sorted() where !known.contains("\(section).\(key)") {
                throw ConfigError(message: "\(source): unknown field '\(section).\(key)' (known: \(known.sorted().joined(separator: ", ")))")
            }
        }
    }

    private var knownSections: String {
        Set(known.map { String($0.split(separator: ".")[0]) }).sorted().joined(separator: ", ")
    }
}
