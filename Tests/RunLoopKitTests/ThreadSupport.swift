import Dispatch
import Glibc

@testable import RunLoopKit

/// Runs `body` on a new thread of its own (so it gets a fresh `RunLoop.current`) and waits for it.
func runOnDedicatedThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        spawnThread {
            body()
            continuation.resume()
        }
    }
}

/// Starts a detached pthread running `body`.
func spawnThread(_ body: @escaping @Sendable () -> Void) {
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
func waitBounded(_ semaphore: DispatchSemaphore, seconds: Int = 30) -> Bool {
    semaphore.wait(timeout: .now() + .seconds(seconds)) == .success
}
