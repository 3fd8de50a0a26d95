import Dispatch
import Foundation
import Synchronization
import Uploads

/// How long a test waits for a callback before it fails: generous, since the machine is
/// shared, and never part of an assertion.
let callbackTimeout = DispatchTimeInterval.seconds(60)

/// Delivers `batch` through `sink` and waits (bounded) for the completion.
///
/// Returns nil if the completion did not come in time; records the thread it ran on.
func deliver(_ batch: Batch, to sink: any BatchSink) -> Delivery? {
    let done = DispatchSemaphore(value: 0)
    let outcome = Mutex<Delivery?>(nil)
    sink.deliver(batch) { result in
        outcome.withLock { $0 = Delivery(result: result, thread: pthread_self()) }
        done.signal()
    }
    guard done.wait(timeout: .now() + callbackTimeout) == .success else { return nil }
    return outcome.withLock { $0 }
}

/// What a sink's completion received, and on which thread.
struct Delivery: Sendable {
    let result: Result<Ack, UploadError>
    let thread: pthread_t

    var ack: Ack? { try? result.get() }

    var error: UploadError? {
        if case .failure(let error) = result { error } else { nil }
    }
}

/// Waits (bounded) until no open ``Outbox`` holds the file at `url` any more: a pipeline that was
/// just released may still have its last outbox call finishing on its I/O thread.
///
/// Takes the outbox's lock with a blocking `flock` on another thread (woken by the release itself)
/// and lets it go at once.
func waitUntilReleased(_ url: URL) throws {
    let path = url.path + ".lock"
    let released = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        let descriptor = open(path, O_RDWR)
        if descriptor >= 0 {
            flock(descriptor, LOCK_EX)
            close(descriptor)
        }
        released.signal()
    }
    guard released.wait(timeout: .now() + callbackTimeout) == .success else {
        throw OutboxError.inUse(path: url.path, holder: getpid())
    }
}
