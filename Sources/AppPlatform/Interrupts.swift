import Glibc

/// Makes `call` (its result `-1` with `errno` on failure) again while a signal interrupts it
/// (`EINTR`), and returns its first other result: the dashboard's one rule for an interrupted call.
///
/// ```swift
/// var status: Int32 = 0
/// _ = retryingInterrupts { waitpid(pid, &status, 0) }
/// ```
public func retryingInterrupts<Result: FixedWidthInteger & SignedInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result != -1 || errno != EINTR { return result }
    }
}
