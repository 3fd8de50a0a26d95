/// What a ``TimeoutSet`` calls when one of its timeouts is due: one handler serves every timeout
/// of the set, in place of a closure per timer (swift-nio's `NIOScheduledCallbackHandler`).
///
/// The set calls ``timeoutFired(_:tag:)`` on its run loop's thread, inside the loop's timer pass.
/// The timeout is over by then: its handle is stale (cancelling it does nothing) and its slot may
/// be reused by a timeout scheduled from the callout.
///
/// A handler is a class: the set holds it by reference, so checking and calling it on every
/// schedule and fire costs a pointer, not a copy of a value in an existential box.
///
/// ```swift
/// final class IdleConnections: TimeoutHandler {
///     var closed: [UInt64] = []
///     func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {
///         closed.append(tag)  // the tag says which connection went idle
///     }
/// }
/// ```
public protocol TimeoutHandler: AnyObject {
    /// Called once for each timeout of the set when it fires, with the tag it was scheduled with.
    func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64)
}
