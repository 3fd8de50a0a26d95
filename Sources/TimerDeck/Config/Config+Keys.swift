extension Config {
    /// The `[keys]` section: each field names an action and gives it one key; an unknown action, a
    /// value that is not one key, or two actions on one key is an error naming them.
    static func keyBindings(_ values: [String: ConfigValue], places: ConfigPlaces) throws(ConfigError) -> KeyBindings {
        var bound: [KeyAction: Character] = [:]
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let action = KeyAction(rawValue: name) else {
                throw ConfigError(
                    message: "\(places.of("keys.\(name)")): "
                        + unknownField(
                            "keys.\(name)", known: KeyAction.allCases.map { "keys.\($0.rawValue)" }, kind: "action"))
            }
            guard case .text(let text) = value, let key = text == "space" ? " " : text.first,
                text == "space" || (text.count == 1 && !key.isWhitespace)
            else {
                throw ConfigError(
                    message: "\(places.of("keys.\(name)")): "
                        + ConfigError.invalidValue(
                            "keys.\(name)", "\(value)", accepted: "one character, e.g. \"Q\", or \"space\""))
            }
            bound[action] = key
        }
        do {
            return try KeyBindings(bound)
        } catch {
            let key = UserText.quote(KeyAction.name(of: error.key))
            let second =
                error.secondByDefault
                ? "\(error.second.rawValue), its key by default (bind keys.\(error.second.rawValue) to another key)"
                : "keys.\(error.second.rawValue)"
            throw ConfigError(
                message:
                    "\(places.of("keys.\(error.first.rawValue)")): keys.\(error.first.rawValue) = \(key) conflicts with \(second) "
                    + "(accepted: a key no other action has)")
        }
    }
}
