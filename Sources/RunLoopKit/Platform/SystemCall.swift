import Glibc

/// The one place RunLoopKit's system calls are checked: `-1` becomes a ``SystemCallError`` carrying
/// the call's name and `errno`, and a call interrupted by a signal (`EINTR`) is made again.
///
/// It is the one place in the library that retries an interrupted call.
package enum SystemCall {
    /// Runs `body` until it does not fail with `EINTR`; any other failure (`-1`) throws.
    @inline(__always)
    package static func check<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        let result = retryingInterrupts(body)
        if result != -1 { return result }
        throw SystemCallError(call: call, errno: errno)
    }

    /// Runs `body` until it does not fail with `EINTR` and returns its result: `-1` with `errno`
    /// set for any other failure, for callers that tell errors apart themselves (`waitpid`, `poll`).
    @inline(__always)
    package static func retryingInterrupts<Result: FixedWidthInteger & SignedInteger>(
        _ body: () -> Result
    ) -> Result {
        while true {
            let result = body()
            if result != -1 || errno != EINTR { return result }
        }
    }

    /// Like ``check(_:_:)``, but a failure with `EAGAIN` (nothing to read yet, a counter already
    /// full) is an expected outcome of a non-blocking descriptor and returns `nil`.
    @inline(__always)
    package static func nonBlocking<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result? {
        do {
            return try check(call, body)
        } catch  where error.errno == EAGAIN {
            return nil
        }
    }

    /// For calls that fail only when the program itself is wrong (a descriptor it owns closed behind
    /// its back, an invalid argument): stops with a message naming the call, the error and `context`.
    package static func mustSucceed(_ context: @autoclosure () -> String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            fatalError("RunLoop: \(context()): \(error)")
        }
    }
}
