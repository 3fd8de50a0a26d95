import Dispatch
import Glibc
import TestSupport

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
