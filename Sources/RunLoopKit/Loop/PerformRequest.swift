/// A delayed perform queued with ``RunLoop/perform(after:inModes:_:)``; cancel it any time before
/// it runs (C-P2). The target–action performs of RunLoopKitFoundationCompat (NSObject's
/// `performSelector:…afterDelay:`) queue one too, which keeps its target and argument alive until
/// its action has run or it is cancelled, and lets them go right after (C-P1).
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
    package private(set) var heldTarget: AnyObject?
    /// The argument the request was queued with, if any; held until performed or cancelled.
    package private(set) var heldArgument: AnyHashable?
    /// The name of the action, for cancelling by target and action (C-P2).
    package let actionName: String?
    /// The identity of the target, kept after the target itself is let go.
    let targetID: ObjectIdentifier?
    private var onFinish: ((PerformRequest) -> Void)?

    /// A request to run `work`, keeping `target` and `argument` alive until it has run; `action`
    /// names it for cancelling (C-P2).
    package init(target: AnyObject?, action: String?, argument: AnyHashable?, work: @escaping () -> Void) {
        heldTarget = target
        actionName = action
        heldArgument = argument
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
        heldTarget = nil
        heldArgument = nil
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
        heldTarget = nil
        heldArgument = nil
    }

    private func finish() {
        timer = nil
        let onFinish = self.onFinish
        self.onFinish = nil
        onFinish?(self)
    }
}

extension RunLoop {
    /// Runs `block` on this loop after `delay`, in `modes` only (seed G6, C-P1): a one-shot timer,
    /// so it waits while the loop runs another mode (paused while tracking unless scheduled for the
    /// tracking mode or ``Mode/common``). A delay of zero still waits for the next pass; empty
    /// `modes` queues nothing.
    ///
    /// ```swift
    /// let request = loop.perform(after: .seconds(2)) { [weak self] in self?.hideToast() }
    /// request.cancel()
    /// ```
    @discardableResult
    public func perform(
        after delay: Duration, inModes modes: [Mode] = [.default], _ block: @escaping () -> Void
    ) -> PerformRequest {
        checkThread("perform(after:inModes:_:)")
        return schedule(
            PerformRequest(target: nil, action: nil, argument: nil, work: block), after: delay, inModes: modes)
    }

    /// Queues `request` to run after `delay` in `modes` (none: it never runs), as a one-shot timer,
    /// and returns it.
    package func schedule(_ request: PerformRequest, after delay: Duration, inModes modes: [Mode]) -> PerformRequest {
        guard !modes.isEmpty else { return request }
        let timer = Timer(fireAt: now + delay, interval: .zero, repeats: false) { _ in request.run() }
        request.start(timer) { [weak self] finished in self?.performRequests.remove(finished) }
        performRequests.insert(request)
        for mode in modes { add(timer, forMode: mode) }
        return request
    }

    /// The pending delayed performs of this loop queued for `target`.
    package func pendingPerformRequests(for target: AnyObject) -> [PerformRequest] {
        performRequests.requests(for: target)
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
