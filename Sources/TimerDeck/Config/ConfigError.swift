/// A config value that cannot be used; the message names the field, the value and the accepted range.
package struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    package let message: String

    package var description: String { message }

    /// What a field says of a value it does not take: `field 'log.capacity' = 5 is invalid (accepted:
    /// an integer 10…100000)`, with the accepted value it is a typo of when there is one (`; did you mean
    /// "green"?`); the message puts the place (`file:line: `) before it.
    static func invalidValue(_ key: String, _ value: String, accepted: String, guess: String? = nil) -> String {
        let hint = guess.map { "; did you mean \(UserText.quote($0))?" } ?? ""
        return "field \(UserText.field(key)) = \(value) is invalid\(hint) (accepted: \(accepted))"
    }

    /// The case of `Choice` named `text`, given for `subject` (`option --color: `,
    /// `TIMERDECK_ANIMATIONS=`); any other text is an error saying so, with the name it is a typo
    /// of and every name accepted: `option --color: "allways" is invalid; did you mean "always"?
    /// (accepted: auto, always or never)`.
    static func choice<Choice: RawRepresentable & CaseIterable>(_ text: String, for subject: String) throws(ConfigError)
        -> Choice where Choice.RawValue == String
    {
        if let choice = Choice(rawValue: text) { return choice }
        let names = Choice.allCases.map(\.rawValue)
        let hint = UserText.closest(to: text, among: names).map { "; did you mean \(UserText.quote($0))?" } ?? ""
        let accepted = names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
        throw ConfigError(message: "\(subject)\(UserText.quote(text)) is invalid\(hint) (accepted: \(accepted))")
    }
}
