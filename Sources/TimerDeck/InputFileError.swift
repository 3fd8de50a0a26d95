/// A config file or script that cannot be read; the message names the file and the reason.
public struct InputFileError: Error, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let message: String

    public var description: String { message }
}
