import RunLoopKit

/// Foundation's `Port`, as far as a run loop sees one: it is told when it is added to a mode of a
/// ``RunLoop`` and when it is taken out.
///
/// RunLoopKit has no Mach or socket ports, so a `Port` here carries no messages of its own. A
/// subclass attaches its own input: in ``schedule(in:forMode:)`` it adds a RunLoopKit source
/// (a `RunLoop.FileDescriptorSource`, say) to `runLoop.base`, and takes it out in
/// ``remove(from:forMode:)``.
///
/// A run loop holds its ports weakly: a port goes away when its owner lets go of it, scheduled or
/// not (Foundation's run loop holds it until it is invalidated, which it learns through a
/// notification).
///
/// ```swift
/// final class Doorbell: Port {
///     override func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) { print("in \(mode)") }
/// }
/// let doorbell = Doorbell()
/// RunLoop.current.add(doorbell, forMode: .default)  // prints "in kCFRunLoopDefaultMode"
/// RunLoop.current.add(doorbell, forMode: .default)  // already there: prints nothing
/// ```
open class Port {
    private var valid = true

    /// A valid port that is in no run loop.
    public init() {}

    /// Whether the port can still be used: `true` until ``invalidate()``.
    open var isValid: Bool { valid }

    /// Marks the port invalid.
    open func invalidate() {
        valid = false
    }

    /// Called when the port is added to `mode` of `runLoop` (once per mode, however often it is added).
    open func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    /// Called when the port is taken out of `mode` of `runLoop`, where it was added.
    open func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {}
}
