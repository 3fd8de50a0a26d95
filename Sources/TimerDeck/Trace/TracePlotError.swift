/// A trace that cannot be plotted: the message names the line and what is wrong.
package struct TracePlotError: Error {
    /// What is wrong and how to fix it.
    package let message: String
}
