import RunLoopKit

/// Objective-C's target–action timers over RunLoopKit's, and the remedies the seeds give for timers
/// that keep their owner alive (L1–L3, decisions.md 11).
///
/// Which to use:
/// - RunLoopKit's block timer (`Timer(fireAt:interval:repeats:block:)`) with `[weak self]` — the
///   default (L2a, L3).
/// - ``RunLoopKit/Timer/withBlockInUserInfo(fireAt:interval:repeats:block:)`` when an API insists
///   on a target: the target is a long-lived object and the block rides in the user info (L2b).
/// - ``RunLoopKit/Timer/weakTarget(_:fireAt:interval:repeats:action:)`` for target–action code:
///   the target is held weakly and the timer invalidates itself at its first fire after the target
///   is gone (L2c).
/// - ``WeakProxy`` where a target is expected and the owner invalidates in `deinit` (L2d).
/// - A RunLoopKit `DispatchTimer` owned by the object, whose release cancels it safely (L2e).
/// - ``RunLoopKit/Timer/init(fireAt:interval:repeats:target:action:)`` holds its target strongly
///   until invalidated: if the target also holds the timer, neither is ever freed (L1).
extension RunLoopKit.Timer {
    /// A target–action timer that holds `target` **strongly** until invalidated, like
    /// `scheduledTimerWithTimeInterval:target:selector:…` (L1). If `target` keeps the timer, it is a
    /// retain cycle that `deinit` cannot break (it never runs): invalidate explicitly, or use
    /// ``weakTarget(_:fireAt:interval:repeats:action:)``.
    public convenience init<Target: AnyObject>(
        fireAt fireDate: Instant, interval: Duration, repeats: Bool,
        target: Target, action: @escaping (Target) -> (RunLoopKit.Timer) -> Void
    ) {
        self.init(fireAt: fireDate, interval: interval, repeats: repeats) { timer in action(target)(timer) }
    }

    /// A timer whose target holds `target` weakly (HWWeakTimer, C-L2): each fire calls `action` on the
    /// target if it is still alive; the first fire after it is gone invalidates the timer and calls
    /// nothing (decisions.md 11). `action` is usually an unapplied method reference, `Owner.tick`.
    public static func weakTarget<Target: AnyObject>(
        _ target: Target, fireAt fireDate: Instant, interval: Duration,
        repeats: Bool, action: @escaping (Target) -> (RunLoopKit.Timer) -> Void
    ) -> RunLoopKit.Timer {
        RunLoopKit.Timer(fireAt: fireDate, interval: interval, repeats: repeats) { [weak target] timer in
            guard let target else {
                timer.invalidate()
                return
            }
            action(target)(timer)
        }
    }

    /// A timer whose target is the long-lived ``BlockTimerTarget/shared`` and whose block rides in
    /// its `userInfo` (L2b). The timer never holds the block's owner unless the block captures it
    /// strongly (L3): capture weakly.
    public static func withBlockInUserInfo(
        fireAt fireDate: Instant, interval: Duration, repeats: Bool,
        block: @escaping (RunLoopKit.Timer) -> Void
    ) -> RunLoopKit.Timer {
        let timer = RunLoopKit.Timer(
            fireAt: fireDate, interval: interval, repeats: repeats,
            target: BlockTimerTarget.shared, action: BlockTimerTarget.run)
        timer.userInfo = BlockTimerTarget.Block(body: block)
        return timer
    }
}

/// The long-lived target of ``RunLoopKit/Timer/withBlockInUserInfo(fireAt:interval:repeats:block:)``:
/// it runs the block found in the timer's user info.
///
/// ```swift
/// let timer = Timer.withBlockInUserInfo(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) {
///     [weak self] _ in self?.refresh()
/// }
/// loop.add(timer, forMode: .default)
/// ```
public final class BlockTimerTarget: Sendable {
    /// The one instance; it lives as long as the process.
    public static let shared = BlockTimerTarget()

    struct Block {
        let body: (RunLoopKit.Timer) -> Void
    }

    private init() {}

    /// Runs the block stored in `timer`'s user info.
    public func run(_ timer: RunLoopKit.Timer) {
        (timer.userInfo as? Block)?.body(timer)
    }
}

/// Holds a target weakly wherever a target is expected (NSProxy, L2d): a strong-target timer then
/// keeps only the proxy alive, so the owner's `deinit` runs and can invalidate the timer.
///
/// ```swift
/// final class Owner {
///     var timer: Timer?
///
///     init(loop: RunLoop) {
///         timer = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true,
///                       target: WeakProxy(self), action: WeakProxy.forward(Owner.tick))
///     }
///
///     func tick(_ timer: Timer) { print("tick") }
///
///     deinit { timer?.invalidate() }
/// }
/// ```
public final class WeakProxy<Target: AnyObject> {
    /// The real target, `nil` once it is gone.
    public private(set) weak var target: Target?

    /// A proxy for `target`.
    public init(_ target: Target) {
        self.target = target
    }

    /// Turns a method of the target into an action of the proxy that does nothing once the target is gone.
    public static func forward(
        _ action: @escaping (Target) -> (RunLoopKit.Timer) -> Void
    ) -> (WeakProxy) -> (RunLoopKit.Timer) -> Void {
        { proxy in { timer in if let target = proxy.target { action(target)(timer) } } }
    }
}
