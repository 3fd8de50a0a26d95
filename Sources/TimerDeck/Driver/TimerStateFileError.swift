/// Why the timers file cannot be kept by this process (``TimerStateFile/claim()``).
package struct TimerStateFileError: Error {
    /// What is wrong and how to fix it.
    package let message: String
}
