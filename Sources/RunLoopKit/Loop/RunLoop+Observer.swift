extension RunLoop {
    /// Watches the activities of a run loop pass: `CFRunLoopObserver`.
    ///
    /// Observers of a mode are called in ascending `order` (the initialiser's); among equal orders,
    /// in the order they were added (C-R8). An observer is never called re-entrantly, and a
    /// non-repeating observer is invalidated after its first callout.
    ///
    /// ```swift
    /// let observer = RunLoop.Observer(activities: [.beforeWaiting, .afterWaiting]) { _, activity in
    ///     print(activity)
    /// }
    /// loop.add(observer, forMode: .common)
    /// ```
    public final class Observer {
        /// The activities the observer is called for.
        let activities: Activity
        /// Whether the observer stays valid after its first callout.
        let repeats: Bool
        /// Position among the mode's observers; lower runs first.
        let order: Int
        private var callback: ((Observer, Activity) -> Void)?
        private(set) var isFiring = false
        private var validity = true
        /// The loop the item is in; not owned, so an item that outlives its loop belongs to none.
        @LoopReference var runLoop: RunLoop?
        var isCommonItem = false

        /// Creates an observer for `activities`; add it to a run loop for one or more modes.
        public init(
            activities: Activity,
            repeats: Bool = true,
            order: Int = 0,
            callback: @escaping (Observer, Activity) -> Void
        ) {
            self.activities = activities
            self.repeats = repeats
            self.order = order
            self.callback = callback
        }

        /// Whether the observer can still be called.
        public var isValid: Bool { validity }

        /// Removes the observer from every mode and releases its callback; idempotent.
        public func invalidate() {
            guard validity else { return }
            runLoop?.checkThread("Observer.invalidate()")
            validity = false
            runLoop?.detach(self)
            callback = nil
        }

        func notify(_ activity: Activity) {
            guard validity, !isFiring, let callback else { return }
            isFiring = true
            callback(self, activity)
            isFiring = false
            if !repeats { invalidate() }
        }
    }
}
