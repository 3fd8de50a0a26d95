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
}
