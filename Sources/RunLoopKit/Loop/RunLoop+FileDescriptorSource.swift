extension RunLoop {
    /// Runs a closure whenever a file descriptor is readable: the run loop's port-style input source.
    ///
    /// The loop waits on the descriptor (epoll, level-triggered) while it runs one of the source's
    /// modes; the closure must read what is available, or it is called again at the next pass.
    /// Handling it counts as "a source handled" (C-R2). The source does not own the descriptor.
    ///
    /// ```swift
    /// let keys = RunLoop.FileDescriptorSource(fileDescriptor: STDIN_FILENO) { readKeys() }
    /// loop.add(keys, forMode: .common)
    /// ```
    public final class FileDescriptorSource {
        /// The descriptor watched for readability.
        public let fileDescriptor: Int32
        private var onReadable: (() -> Void)?
        private var validity = true
        /// The loop the item is in; not owned, so an item that outlives its loop belongs to none.
        @LoopReference var runLoop: RunLoop?
        var isCommonItem = false

        /// Creates a source calling `onReadable` on the run loop's thread when `fileDescriptor` is readable.
        public init(fileDescriptor: Int32, onReadable: @escaping () -> Void) {
            self.fileDescriptor = fileDescriptor
            self.onReadable = onReadable
        }

        /// Whether the source is still watched.
        public var isValid: Bool { validity }

        /// The modes the source is watched in, empty when it is in no run loop.
        public var modes: [RunLoop.Mode] {
            runLoop?.modes(containing: self) ?? []
        }

        /// Stops watching the descriptor in every mode and releases the closure; idempotent.
        public func invalidate() {
            guard validity else { return }
            runLoop?.checkThread("FileDescriptorSource.invalidate()")
            validity = false
            runLoop?.detach(self)
            onReadable = nil
        }

        func handle() {
            guard validity, let onReadable else { return }
            onReadable()
        }
    }
}
