internal import CLinuxEvents
import Glibc

extension RunLoop {
    /// In debug builds, stops the program if the caller is not on the loop's own thread, with a
    /// message naming `call` and both threads. Release builds check nothing here.
    ///
    /// Every mutating entry point calls it: a run loop is single-threaded, and other threads reach
    /// it only through ``handle`` (decisions.md 5).
    @inline(__always)
    package func checkThread(_ call: @autoclosure () -> String) {
        assert(pthread_equal(ownerThread, pthread_self()) != 0, threadMismatch(call()))
    }

    /// Whether the calling thread owns the loop.
    var isOnOwnerThread: Bool {
        pthread_equal(ownerThread, pthread_self()) != 0
    }

    func threadMismatch(_ call: String) -> String {
        "RunLoop.\(call) called on thread \(cle_thread_id()), but this run loop belongs to thread "
            + "\(ownerThreadKernelID); from other threads use its handle (RunLoop.Handle)"
    }
}
