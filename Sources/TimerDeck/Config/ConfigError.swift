/// A config value that cannot be used; the message names the field, the value and the accepted range.
package struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    package let message: String

    package var description: String { message }
}
