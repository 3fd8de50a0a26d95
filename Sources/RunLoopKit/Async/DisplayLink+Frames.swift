extension DisplayLink {
    /// One callback of a display link as an element of ``frames`` (rule C-X3; seed D3, C-D4).
    public struct Frame: Sendable, Equatable {
        /// The vsync time of the frame (``DisplayLink/timestamp``).
        public var timestamp: Instant
        /// The vsync time of the next callback's frame (``DisplayLink/targetTimestamp``).
        public var targetTimestamp: Instant
        /// Callback slots skipped since the previous element: the link stays on its vsync grid and
        /// never queues frames (C-D4); a frame the consumer had not taken counts as skipped too.
        public var skippedFrames: Int
    }

    /// The link's callbacks as an asynchronous sequence, made on the thread of the loop it is
    /// scheduled on (rule C-X3). The callback still runs first. Ending the iteration (or cancelling
    /// its task) invalidates the link.
    ///
    /// ```swift
    /// let link = DisplayLink { _ in }
    /// link.add(to: loop, forMode: .common)
    /// let frames = link.frames
    /// Task(executorPreference: loop.taskExecutor) {
    ///     for await frame in frames { draw(at: frame.timestamp, next: frame.targetTimestamp) }
    /// }
    /// ```
    public var frames: some AsyncSequence<Frame, Never> & Sendable {
        guard let loop = runLoop else {
            preconditionFailure("DisplayLink.frames: add the link to a run loop first")
        }
        let link = LoopBound(self, on: loop)
        let merge: @Sendable (inout Frame, Frame) -> Void = { pending, next in
            let skipped = pending.skippedFrames + next.skippedFrames + 1
            pending = next
            pending.skippedFrames = skipped
        }
        return TimeSequence(handle: loop.handle, merge: merge) { _, deliver in
            let link = link.value
            var skipped = link.skippedFrames
            link.frameObserver = { link in
                deliver(
                    Frame(
                        timestamp: link.timestamp, targetTimestamp: link.targetTimestamp,
                        skippedFrames: link.skippedFrames - skipped))
                skipped = link.skippedFrames
            }
            return { link.invalidate() }
        }
    }
}
