import Dispatch

/// A delayed perform queued with ``RunLoop/perform(after:inModes:target:_:)``; cancel it any time
/// before it runs (C-P2). It keeps its target and argument alive until its action has run or it is
/// cancelled, and lets them go right after (C-P1).
///
/// ```swift
/// let request = loop.perform(after: .seconds(3)) { showHint() }
/// request.cancel()
/// ```
public final class PerformRequest {
    /// Weak: the loop holds the timer while it is scheduled, and the timer's block holds the request.
    private weak var timer: Timer?
    private var work: (() -> Void)?
    /// The object the request was queued for, if any; held strongly until performed or cancelled.
    public private(set) var target: AnyObject?
    /// The argument the request was queued with, if any; held until performed or cancelled.
    public private(set) var argument: AnyHashable?
    /// The name of the action, for cancelling by target and action (C-P2).
    public let action: String?
    /// The identity of the target, kept after the target itself is let go.
    let targetID: ObjectIdentifier?
    private var onFinish: ((PerformRequest) -> Void)?

    init(target: AnyObject?, action: String?, argument: AnyHashable?, work: @escaping () -> Void) {
        self.target = target
        self.action = action
        self.argument = argument
        self.work = work
        targetID = target.map(ObjectIdentifier.init)
    }

    /// Whether the request is still waiting to run.
    public var isPending: Bool { timer?.isValid ?? false }

    /// Cancels the request if it has not run yet; idempotent.
    public func cancel() {
        timer?.invalidate()
        finish()
        work = nil
        target = nil
        argument = nil
    }

    func start(_ timer: Timer, onFinish: @escaping (PerformRequest) -> Void) {
        self.timer = timer
        self.onFinish = onFinish
    }

    /// Runs the action once: no longer pending while it runs, target and argument alive until it returns (C-P1).
    func run() {
        guard let work else { return }
        self.work = nil
        finish()
        work()
        target = nil
        argument = nil
    }

    private func finish() {
        timer = nil
        let onFinish = self.onFinish
        self.onFinish = nil
        onFinish?(self)
    }

    func matches(action: String, argument: AnyHashable?) -> Bool {
        self.action == action && self.argument == argument
    }
}

extension RunLoop {
    /// Runs `block` on this loop after `delay`, in `modes` only (`performSelector:afterDelay:inModes:`,
    /// seed G6, C-P1): a one-shot timer, so it waits while the loop runs another mode (paused while
    /// tracking unless scheduled for the tracking mode or ``Mode/common``). A delay of zero still
    /// waits for the next pass; empty `modes` queues nothing. `target`, if given, is kept alive
    /// until the block has run.
    ///
    /// ```swift
    /// let request = loop.perform(after: .seconds(2), target: self) { [weak self] in self?.hideToast() }
    /// request.cancel()                        // or: loop.cancelPerformRequests(target: self)
    /// ```
    @discardableResult
    public func perform(
        after delay: Duration, inModes modes: [Mode] = [.default], target: AnyObject? = nil,
        _ block: @escaping () -> Void
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

    private func schedule(_ request: PerformRequest, after delay: Duration, inModes modes: [Mode]) -> PerformRequest {
        guard !modes.isEmpty else { return request }
        let timer = Timer(fireAt: now + delay, interval: .zero, repeats: false) { _ in request.run() }
        request.start(timer) { [weak self] finished in self?.performRequests.remove(finished) }
        performRequests.insert(request)
        for mode in modes { add(timer, forMode: mode) }
        return request
    }

    /// Cancels every pending delayed perform of this loop queued for `target`
    /// (`cancelPreviousPerformRequests(withTarget:)`, C-P2).
    public func cancelPerformRequests(target: AnyObject) {
        checkThread("cancelPerformRequests(target:)")
        for request in performRequests.requests(for: target) { request.cancel() }
    }

    /// Cancels the pending delayed performs of this loop queued for `target` with this `action` name
    /// and an equal `argument` (`nil` matches requests without one):
    /// `cancelPreviousPerformRequests(withTarget:selector:object:)` (C-P2).
    public func cancelPerformRequests(target: AnyObject, action: String, argument: AnyHashable? = nil) {
        checkThread("cancelPerformRequests(target:action:argument:)")
        for request in performRequests.requests(for: target) where request.matches(action: action, argument: argument) {
            request.cancel()
        }
    }
}

/// The pending delayed performs of a run loop, indexed by target for cancel-by-target.
struct PerformRequests {
    private var byTarget: [ObjectIdentifier: [ObjectIdentifier: PerformRequest]] = [:]

    mutating func insert(_ request: PerformRequest) {
        guard let target = request.targetID else { return }
        byTarget[target, default: [:]][ObjectIdentifier(request)] = request
    }

    mutating func remove(_ request: PerformRequest) {
        guard let target = request.targetID else { return }
        byTarget[target]?[ObjectIdentifier(request)] = nil
        if byTarget[target]?.isEmpty == true { byTarget[target] = nil }
    }

    func requests(for target: AnyObject) -> [PerformRequest] {
        byTarget[ObjectIdentifier(target)].map { Array($0.values) } ?? []
    }
}

/// `dispatch_after`: runs `work` on `queue` after `delay` and cannot be cancelled (seed G6, C-G9).
/// Use ``RunLoop/perform(after:inModes:target:_:)`` or a `DispatchWorkItem` when it may need to be.
///
/// ```swift
/// DispatchAfter.schedule(after: .seconds(2)) { flushLogs() }   // no way to take it back
/// ```
public enum DispatchAfter {
    /// Schedules `work`; there is no way to take it back.
    public static func schedule(
        after delay: Duration, on queue: DispatchQueue = .global(),
        _ work: @escaping @Sendable () -> Void
    ) {
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: max(delay.nanoseconds, 0))), execute: work)
    }
}
