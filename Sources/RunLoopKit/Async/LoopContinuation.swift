/// The continuation a sleep or a sequence of time suspends on. Debug builds check it (a second
/// resume traps, one never resumed is reported when it goes away); release builds use the
/// unchecked one, which the resumption of every sleeper pays nothing for. The state machines that
/// hold one take it out once: ``Sleeper`` by a compare-and-exchange, ``TimeEvents`` under its lock.
#if DEBUG
typealias LoopContinuation<Success, Failure: Error> = CheckedContinuation<Success, Failure>
#else
typealias LoopContinuation<Success, Failure: Error> = UnsafeContinuation<Success, Failure>
#endif

/// Suspends the calling task with a ``LoopContinuation`` that `body` keeps.
nonisolated(nonsending) func withLoopContinuation<Success: Sendable>(
    _ body: (LoopContinuation<Success, Never>) -> Void
) async -> Success {
    #if DEBUG
    await withCheckedContinuation(body)
    #else
    await withUnsafeContinuation(body)
    #endif
}

/// Suspends the calling task with a throwing ``LoopContinuation`` that `body` keeps.
nonisolated(nonsending) func withLoopThrowingContinuation<Success: Sendable>(
    _ body: (LoopContinuation<Success, any Error>) -> Void
) async throws -> Success {
    #if DEBUG
    try await withCheckedThrowingContinuation(body)
    #else
    try await withUnsafeThrowingContinuation(body)
    #endif
}
