internal import CLinuxEvents
import Glibc

/// Whether a run loop still exists, for the objects that belong to it: the one way they reach their
/// loop (``LoopReference``, and the loop's ``JobQueue``).
///
/// They could hold the loop `weak`, but the first weak reference to an object gives it a side
/// table, and from then on every retain and release of that object, thousands per pass, takes the
/// runtime's slow path. Instead the loop owns this small object, the holders keep it strongly, and
/// it points back at the loop with an `unowned` reference — checked by the runtime on every read,
/// and kept in the object's inline count, with no side table — that the loop clears first thing in
/// its `deinit` (``end()``), so a holder sees `nil` from then on, as it would through `weak`.
///
/// Sound because every read happens on the loop's thread (checked in debug builds) while the loop
/// lives there: a run loop is single-threaded (decisions.md 5), its items are reached only from its
/// thread, and it goes away on that thread, so no read can race the clearing. Other threads reach
/// a loop through its ``RunLoop/Handle``, never through this.
final class LoopLife: @unchecked Sendable {
    // Safe as `Sendable` (``JobQueue`` is): `storedLoop` is read (``loop``) and written (``bind(_:)``,
    // ``end()``) only on `ownerThread`, which ``loop`` checks in debug builds.
    unowned private var storedLoop: RunLoop?
    private let ownerThread: pthread_t
    private let ownerThreadKernelID: Int32

    init(ownerThread: pthread_t, ownerThreadKernelID: Int32) {
        self.ownerThread = ownerThread
        self.ownerThreadKernelID = ownerThreadKernelID
    }

    /// The loop while it exists, `nil` once its `deinit` began; only on the loop's thread.
    var loop: RunLoop? {
        assert(
            pthread_equal(ownerThread, pthread_self()) != 0,
            "RunLoop: an item of the run loop of thread \(ownerThreadKernelID) was used on thread "
                + "\(cle_thread_id()); use a loop's items on its thread, and its handle (RunLoop.Handle) from others")
        return storedLoop
    }

    /// Called once by the loop's initialiser, on its thread.
    func bind(_ loop: RunLoop) {
        storedLoop = loop
    }

    /// Called first by the loop's `deinit`: the loop is gone for every holder.
    func end() {
        storedLoop = nil
    }
}

/// A reference to a run loop that does not keep it alive and reads `nil` once it is gone, like
/// `weak`, without giving the loop a side table (``LoopLife``). Only on the loop's thread.
@propertyWrapper
struct LoopReference: Sendable {
    private var life: LoopLife?

    init() {
        life = nil
    }

    init(wrappedValue: RunLoop?) {
        life = wrappedValue?.life
    }

    var wrappedValue: RunLoop? {
        get { life?.loop }
        set { life = newValue?.life }
    }
}
