import Glibc

/// An object per thread, behind a pthread key: each thread reads its own (or none), and the key
/// holds a strong reference that is released when the thread ends or the object is replaced.
package final class ThreadLocal<Object: AnyObject>: @unchecked Sendable {
    // Safe because a pthread key is made once and the pthread functions on it are thread-safe;
    // each thread only ever reads or writes its own slot.
    private let key: pthread_key_t

    /// Makes the key; stops the program when the system has no key left (a fixed number per
    /// process, taken once per `ThreadLocal`, which the package makes only as static constants).
    package init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "RunLoop: pthread_key_create failed (\(status))")
        self.key = key
    }

    /// The calling thread's object, if it has one.
    package var value: Object? {
        pthread_getspecific(key).map { Unmanaged<Object>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Makes `object` the calling thread's object (or removes it), releasing the one it replaces.
    package func set(_ object: Object?) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, object.map { Unmanaged.passRetained($0).toOpaque() })
        if let previous { Unmanaged<Object>.fromOpaque(previous).release() }
    }

    /// Runs `body` with `object` as the calling thread's object, then puts the previous one back.
    package func with<Result>(_ object: Object, _ body: () throws -> Result) rethrows -> Result {
        let previous = value
        set(object)
        defer { set(previous) }
        return try body()
    }
}
