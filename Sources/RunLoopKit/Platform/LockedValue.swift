import Glibc

/// A value behind a pthread mutex, for the state async code shares between threads (executor jobs,
/// sequences of time).
///
/// `Synchronization.Mutex` locks with a raw futex, which ThreadSanitizer does not see: every access
/// under it reads as a race. ThreadSanitizer intercepts `pthread_mutex_lock`, so the state kept here
/// is checked by `.ci/sanitize` rather than suppressed.
package final class LockedValue<Value>: @unchecked Sendable {
    // Safe because `value` is only read or written inside `withLock`, which holds `mutex`, so no two
    // threads touch it at once and each sees the last one's writes.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, under the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
