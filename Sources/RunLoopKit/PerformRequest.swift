import Dispatch

/// A delayed perform queued with ``RunLoop/perform(after:inModes:target:_:)``; cancel it any time
/// before it runs (C-P2). It keeps its target alive until it has run or is cancelled (C-P1).
///
/// ```swift
/// let request = loop.perform(after: .seconds(3)) { showHint() }
/// request.cancel()
/// ```
public final class PerformRequest {
    private var timer: Timer?
    /// The object the request was queued for, if any; held strongly until performed or cancelled.
    public private(set) var target: AnyObject?
    /// The identity of the target, kept after the target itself is let go.
    let targetID: ObjectIdentifier?
    private var onFinish: ((PerformRequest) -> Void)?

    init(target: AnyObject?) {
        self.target = target
        targetID = target.map(ObjectIdentifier.init)
    }

    /// Whether the request is still waiting to run.
    public var isPending: Bool { timer?.isValid ?? false }

    /// Cancels the request if it has not run yet; idempotent.
    public func cancel() {
        timer?.invalidate()
        finish()
    }

    func start(_ timer: Timer, onFinish: @escaping (PerformRequest) -> Void) {
        self.timer = timer
        self.onFinish = onFinish
    }

    func finish() {
        timer = nil
        target = nil
        let onFinish = self.onFinish
        self.onFinish = nil
        onFinish?(self)
    }
}

extension RunLoop {
    /// Runs `block` on this loop after `delay`, in `modes` only (`performSelector:afterDelay:inModes:`,
    /// seed G6, C-P1): a one-shot timer, so it waits while the loop runs another mode (paused while
    /// tracking unless scheduled for the tracking mode or ``Mode/common``). A delay of zero still
    /// waits for the next pass; empty `modes` queues nothing.
    ///
    /// ```swift
    /// let request = loop.perform(after: .seconds(2), target: self) { [weak self] in self?.hideToast() }
    /// request.cancel()                        // or: loop.cancelPerformRequests(target: self)
    /// ```
    @discardableResult
    public func perform(after delay: Duration, inModes modes: [Mode] = [.default], target: AnyObject? = nil,
                        _ block: @escaping () -> Void) -> PerformRequest {
        checkThread("perform(after:inModes:target:_:)")
        let request = PerformRequest(target: target)
        guard !modes.isEmpty else { return request }
        let timer = Timer(fireAt: now + delay, interval: .zero, repeats: false) { _ in
            request.finish()
            block()
        }
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
    public static func schedule(after delay: Duration, on queue: DispatchQueue = .global(),
                                _ work: @escaping @Sendable () -> Void) {
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: max(delay.nanoseconds, 0))), execute: work)
    }
}
