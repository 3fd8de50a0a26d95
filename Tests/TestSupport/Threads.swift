import Dispatch
import Glibc

/// Starts a detached pthread running `body`.
public func spawnThread(_ body: @escaping @Sendable () -> Void) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let status = pthread_create(
        &thread, nil,
        { pointer in
            let box = Unmanaged<Box>.fromOpaque(pointer!).takeRetainedValue()
            box.body()
            return nil
        }, box)
    precondition(status == 0)
    pthread_detach(thread)
}

/// Waits up to `seconds` for `semaphore`; a bounded wait, no timing assertion.
public func waitBounded(_ semaphore: DispatchSemaphore, seconds: Int = 30) -> Bool {
    semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
}
