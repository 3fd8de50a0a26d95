import RunLoopKit

/// NSObject's delayed performs — `performSelector:…afterDelay:inModes:` and
/// `cancelPreviousPerformRequestsWithTarget:…` — with a closure in place of the selector, on
/// RunLoopKit's loop (``RunLoop/base``).
extension RunLoopKit.RunLoop {
    /// `performSelector:afterDelay:inModes:` on `target`: runs `block` on this loop after `delay`, in
    /// `modes` only, as RunLoopKit's `perform(after:inModes:_:)` does, and keeps `target` alive until
    /// the block has run (C-P1); ``cancelPerformRequests(target:)`` cancels it by target (C-P2).
    ///
    /// ```swift
    /// let request = loop.perform(after: .seconds(2), target: self) { [weak self] in self?.hideToast() }
    /// request.cancel()                        // or: loop.cancelPerformRequests(target: self)
    /// ```
    @discardableResult
    public func perform(
        after delay: Duration, inModes modes: [Mode] = [.default], target: AnyObject, _ block: @escaping () -> Void
    ) -> PerformRequest {
        checkThread("perform(after:inModes:target:_:)")
        return schedule(
            PerformRequest(target: target, action: nil, argument: nil, work: block), after: delay, inModes: modes)
    }

    /// `performSelector:withObject:afterDelay:inModes:`: calls `body` with `target` and `argument`
    /// after `delay`, in `modes` only. The request keeps both alive until `body` has run and lets
    /// them go right after (C-P1); ``cancelPerformRequests(target:action:argument:)`` cancels it by
    /// target, `action` name and argument (C-P2).
    ///
    /// ```swift
    /// loop.perform(after: .milliseconds(300), target: self, action: "search", argument: query) { owner, query in
    ///     owner.search(query as? String)
    /// }
    /// loop.cancelPerformRequests(target: self, action: "search", argument: query)   // typing went on
    /// ```
    @discardableResult
    public func perform<Target: AnyObject>(
        after delay: Duration, inModes modes: [Mode] = [.default],
        target: Target, action: String, argument: AnyHashable? = nil,
        _ body: @escaping (Target, AnyHashable?) -> Void
    ) -> PerformRequest {
        checkThread("perform(after:inModes:target:action:argument:_:)")
        let request = PerformRequest(target: target, action: action, argument: argument) { body(target, argument) }
        return schedule(request, after: delay, inModes: modes)
    }

    /// Cancels every pending delayed perform of this loop queued for `target`
    /// (`cancelPreviousPerformRequests(withTarget:)`, C-P2).
    public func cancelPerformRequests(target: AnyObject) {
        checkThread("cancelPerformRequests(target:)")
        for request in pendingPerformRequests(for: target) { request.cancel() }
    }

    /// Cancels the pending delayed performs of this loop queued for `target` with this `action` name
    /// and an equal `argument` (`nil` matches requests without one):
    /// `cancelPreviousPerformRequests(withTarget:selector:object:)` (C-P2).
    public func cancelPerformRequests(target: AnyObject, action: String, argument: AnyHashable? = nil) {
        checkThread("cancelPerformRequests(target:action:argument:)")
        for request in pendingPerformRequests(for: target)
        where request.actionName == action && request.heldArgument == argument {
            request.cancel()
        }
    }
}

extension PerformRequest {
    /// The object the request was queued for, if any; held strongly until performed or cancelled.
    public var target: AnyObject? { heldTarget }

    /// The argument the request was queued with, if any; held until performed or cancelled.
    public var argument: AnyHashable? { heldArgument }

    /// The name of the action, for cancelling by target and action (C-P2).
    public var action: String? { actionName }
}
