internal import CLinuxEvents
import Glibc

/// A value that may be carried across threads but is only touched on the thread of the run loop it
/// is bound to, checked at run time (swift-nio's `NIOLoopBound`).
///
/// Use it to hand a non-`Sendable` value (a closure capturing loop-bound state, an object of the
/// loop's thread) through `Sendable` code, such as a ``RunLoop/Handle/perform(inModes:_:)`` block
/// or a dispatch queue, back to its loop. Reading or writing ``value`` on any other thread stops
/// the program with a message naming both threads, in release builds too.
///
/// ```swift
/// let render = LoopBound({ [weak view] (data: [UInt8]) in view?.render(data) }, on: loop)   // on the loop's thread
/// DispatchQueue.global().async {
///     let data = load()
///     handle.perform { render.value(data) }                                  // back on the loop's thread
/// }
/// ```
public struct LoopBound<Value>: @unchecked Sendable {
    // Safe because `storage` is reached only through `value`, whose every access first checks that
    // it runs on `ownerThread`, so the value is only ever touched from that one thread.
    private final class Storage {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private let storage: Storage
    private let ownerThread: pthread_t
    private let ownerThreadID: Int32

    /// Binds `value` to `loop`'s thread; must be called on that thread.
    public init(_ value: Value, on loop: RunLoop) {
        precondition(loop.isOnOwnerThread, loop.threadMismatch("LoopBound.init(_:on:)"))
        storage = Storage(value)
        ownerThread = loop.ownerThread
        ownerThreadID = loop.ownerThreadKernelID
    }

    /// The value; only on the loop's thread.
    public var value: Value {
        get {
            checkThread()
            return storage.value
        }
        nonmutating set {
            checkThread()
            storage.value = newValue
        }
    }

    @inline(__always)
    private func checkThread() {
        precondition(
            pthread_equal(ownerThread, pthread_self()) != 0,
            "LoopBound.value used on thread \(cle_thread_id()), but it is bound to the run loop of thread \(ownerThreadID)"
        )
    }
}
