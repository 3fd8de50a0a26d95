import KeptTimers
import RunLoopKit
import TerminalUI

/// One field of the config file: its `section.key`, what it accepts, and where it goes in `Root`
/// (``Config``, or a ``TimerDefinition`` for a field of a `[[timers]]` table).
///
/// ``Config/fields`` and ``TimerDefinition/fields`` are the tables of them: decoding, the error
/// messages and the documented defaults all come from them.
struct ConfigField<Root>: Sendable {
    /// `section.key`, as written in the file.
    let key: String
    /// What the field accepts, as the error message and the shipped file say it: `an integer 1…240`.
    let accepted: String
    /// The range alone (`1…240`, `1ms…10s`), or `nil` for a field without one.
    let range: String?
    /// Stores `value` into a config; `false` if the value is not accepted.
    private let store: @Sendable (inout Root, ConfigValue) -> Bool
    /// The field's value in `config`, written as in the file (`60`, `"250ms"`, `true`).
    let written: @Sendable (Root) -> String
    /// The accepted value a refused one was most likely meant to be (a typo of a name), if any.
    var suggestion: (@Sendable (ConfigValue) -> String?)? = nil

    /// The section the field belongs to.
    var section: Substring { key.prefix { $0 != "." } }

    /// Stores `value` into `config`, or names the field, the value and what is accepted.
    func apply(_ value: ConfigValue, to config: inout Root, source: String) throws(ConfigError) {
        guard store(&config, value) else {
            let guess = suggestion?(value)
            throw ConfigError(
                message: "\(source): " + ConfigError.invalidValue(key, "\(value)", accepted: accepted, guess: guess))
        }
    }

    /// A whole number in `range`.
    static func integer(_ key: String, _ path: WritableKeyPath<Root, Int> & Sendable, in range: ClosedRange<Int>)
        -> ConfigField
    {
        let bounds = "\(range.lowerBound)…\(range.upperBound)"
        return ConfigField(
            key: key, accepted: "an integer \(bounds)", range: bounds,
            store: { config, value in
                guard case .integer(let number) = value, range.contains(number) else { return false }
                config[keyPath: path] = number
                return true
            }, written: { String($0[keyPath: path]) })
    }

    /// A duration string (`"250ms"`, `"3s"`, `"5m"`, `"2h"`) in `range`.
    static func duration(
        _ key: String, _ path: WritableKeyPath<Root, Duration> & Sendable,
        in range: ClosedRange<Duration>
    ) -> ConfigField {
        let bounds = DurationText.range(range)
        return ConfigField(
            key: key, accepted: "a duration \(bounds), e.g. \"250ms\", \"3s\", \"5m\"", range: bounds,
            store: { config, value in
                guard case .text(let text) = value, let duration = DurationText.parse(text), range.contains(duration)
                else {
                    return false
                }
                config[keyPath: path] = duration
                return true
            }, written: { "\"\(DurationText.setting($0[keyPath: path]))\"" })
    }

    /// `true` or `false`.
    static func flag(_ key: String, _ path: WritableKeyPath<Root, Bool> & Sendable) -> ConfigField {
        ConfigField(
            key: key, accepted: "true or false", range: nil,
            store: { config, value in
                guard case .flag(let flag) = value else { return false }
                config[keyPath: path] = flag
                return true
            }, written: { String($0[keyPath: path]) })
    }

    /// One of a fixed set of names.
    static func choice<Value: Sendable>(
        _ key: String, _ path: WritableKeyPath<Root, Value> & Sendable,
        _ choices: KeyValuePairs<String, Value>
    ) -> ConfigField where Value: Equatable {
        let names = choices.map(\.key)
        let pairs = Array(choices)
        let accepted = names.dropLast().map { "\"\($0)\"" }.joined(separator: ", ") + " or \"\(names.last ?? "")\""
        return ConfigField(
            key: key, accepted: accepted, range: nil,
            store: { config, value in
                guard case .text(let name) = value, let choice = pairs.first(where: { $0.key == name }) else {
                    return false
                }
                config[keyPath: path] = choice.value
                return true
            }, written: { config in "\"\(pairs.first { $0.value == config[keyPath: path] }?.key ?? "")\"" },
            suggestion: { value in closestName(to: value, among: names) })
    }

    /// A string read by `parse` (`nil`: not accepted) and written back by `write`.
    static func parsed<Value: Sendable>(
        _ key: String, _ path: WritableKeyPath<Root, Value> & Sendable, accepted: String,
        parse: @escaping @Sendable (String) -> Value?, write: @escaping @Sendable (Value) -> String
    ) -> ConfigField {
        ConfigField(
            key: key, accepted: accepted, range: nil,
            store: { config, value in
                guard case .text(let text) = value, let parsed = parse(text) else { return false }
                config[keyPath: path] = parsed
                return true
            }, written: { write($0[keyPath: path]).quotedForJSONAndTOML })
    }

    /// A run loop mode by name (M4).
    static func mode(_ key: String, _ path: WritableKeyPath<Root, RunLoop.Mode> & Sendable) -> ConfigField {
        choice(key, path, ["default": .default, "tracking": .tracking, "modal": .modal, "common": .common])
    }

    /// A string; an empty one stores `nil` when `emptyIsNone`, and is refused otherwise.
    static func text(
        _ key: String, _ path: WritableKeyPath<Root, String?> & Sendable, accepted: String,
        emptyIsNone: Bool
    ) -> ConfigField {
        ConfigField(
            key: key, accepted: accepted, range: nil,
            store: { config, value in
                guard case .text(let text) = value, emptyIsNone || !text.isEmpty else { return false }
                config[keyPath: path] = text.isEmpty ? nil : text
                return true
            }, written: { ($0[keyPath: path] ?? "").quotedForJSONAndTOML })
    }

    /// A colour (``TerminalColor``), or `""` for none: the theme's.
    static func color(_ key: String, _ path: WritableKeyPath<Root, TerminalColor?> & Sendable) -> ConfigField {
        ConfigField(
            key: key, accepted: "\"\" (the theme's) or " + TerminalColor.accepted, range: nil,
            store: { config, value in
                guard case .text(let text) = value else { return false }
                if text.isEmpty {
                    config[keyPath: path] = nil
                    return true
                }
                guard let color = TerminalColor(text) else { return false }
                config[keyPath: path] = color
                return true
            }, written: { "\"\($0[keyPath: path].map(String.init(describing:)) ?? "")\"" },
            suggestion: { value in closestName(to: value, among: TerminalColor.writtenNames) })
    }

    /// The one of `names` a text value is a typo of, if any.
    private static func closestName(to value: ConfigValue, among names: [String]) -> String? {
        guard case .text(let text) = value else { return nil }
        return UserText.closest(to: text.lowercased(), among: names)
    }
}
