extension Config {
    /// The `[keys]` section: each field names an action and gives it one key; an unknown action, a
    /// value that is not one key, or two actions on one key is an error naming them.
    static func keyBindings(_ values: [String: ConfigValue], source: String) throws(ConfigError) -> KeyBindings {
        var bound: [KeyAction: Character] = [:]
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let action = KeyAction(rawValue: name) else {
                throw ConfigError(
                    message: "\(source): unknown action \(UserText.quote("keys.\(name)")) (known: "
                        + KeyAction.allCases.map(\.rawValue).joined(separator: ", ") + ")")
            }
            guard case .text(let text) = value, let key = text == "space" ? " " : text.first,
                text == "space" || (text.count == 1 && !key.isWhitespace)
            else {
                throw ConfigError(
                    message: "\(source): field 'keys.\(name)' = \(value) is invalid (accepted: one character, "
                        + "e.g. \"Q\", or \"space\")")
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
                message: "\(source): keys.\(error.first.rawValue) = \(key) conflicts with \(second) "
                    + "(accepted: a key no other action has)")
        }
    }
}
