extension RunLoop.Handle {
    /// Runs `body` with the loop on the loop's thread, as a job of its ``taskExecutor`` (rule C-X1: in
    /// the loop's ``RunLoop/executorModes``), and returns its result or rethrows its error — with
    /// its type: a closure that cannot throw needs no `try`.
    ///
    /// ```swift
    /// let fireDate = await handle.submit { loop in loop.nextFireDate(forMode: .default) }
    /// ```
    public func submit<Result: Sendable, Failure: Error>(
        _ body: @Sendable (RunLoop) throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        try await withTaskExecutorPreference(taskExecutor) { () throws(Failure) -> Result in
            try jobs.withLoop(body)
        }
    }

    /// Whether the calling thread is the loop's (swift-nio's `inEventLoop`).
    public var isOnLoopThread: Bool { jobs.isOnLoopThread }
}
