/// A config value that cannot be used; the message names the field, the value and the accepted range.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let message: String

    public var description: String { message }
}
