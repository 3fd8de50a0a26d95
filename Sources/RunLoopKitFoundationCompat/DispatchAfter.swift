import Dispatch
import RunLoopKit
internal import TimeUnits

/// `dispatch_after`: runs `work` on `queue` after `delay` and cannot be cancelled (seed G6, C-G9).
/// Use RunLoopKit's `RunLoop.perform(after:inModes:_:)` or a `DispatchWorkItem` when it may need to be.
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
