/// A trace file that cannot be written: the message says which and why.
package struct TraceFileError: Error {
    /// What is wrong and how to fix it.
    package let message: String
}
