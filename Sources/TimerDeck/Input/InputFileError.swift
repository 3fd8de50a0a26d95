/// A config file or script that cannot be read; the message names the file and the reason.
package struct InputFileError: Error, Equatable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    package let message: String

    package var description: String { message }
}
