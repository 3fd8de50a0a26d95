internal import CLinuxEvents
import Glibc

/// The per-thread run loop storage behind ``RunLoop/current``: a pthread key holding a retained loop.
enum CurrentRunLoop {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<RunLoop>.fromOpaque(pointer).release()
        }
        precondition(status == 0, "RunLoop: pthread_key_create failed (\(status))")
        return key
    }()

    static func get() -> RunLoop {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<RunLoop>.fromOpaque(pointer).takeUnretainedValue()
        }
        let loop: RunLoop
        do {
            // C-R13: the main thread's current loop is the main loop.
            loop = cle_is_main_thread() != 0 ? RunLoop.main : try RunLoop.make()
        } catch {
            fatalError(
                "RunLoop.current: cannot create this thread's run loop: \(error); free descriptors or raise the limit (ulimit -n)"
            )
        }
        pthread_setspecific(key, Unmanaged.passRetained(loop).toOpaque())
        return loop
    }

    static func with<Result>(_ loop: RunLoop, _ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passRetained(loop).toOpaque())
        defer {
            Unmanaged<RunLoop>.fromOpaque(pthread_getspecific(key)!).release()
            pthread_setspecific(key, previous)
        }
        return try body()
    }
}
