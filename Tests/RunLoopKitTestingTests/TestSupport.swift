import Dispatch
import Glibc
import RunLoopKit
import Synchronization

/// A run loop on a fresh virtual clock, bound to the calling thread.
func makeVirtualLoop() -> (RunLoop, VirtualClock) {
    let clock = VirtualClock()
    return (RunLoop(clock: .virtual(clock)), clock)
}

/// Milliseconds on the uptime axis, for readable expectations.
func ms(_ value: Int64) -> Instant {
    Instant(nanoseconds: value * Nanoseconds.perMillisecond)
}

extension Instant {
    /// Whole milliseconds since the clock's origin.
    var milliseconds: Int64 { nanoseconds / Nanoseconds.perMillisecond }
}

/// Records what happened, in order, with the virtual time it happened at.
final class Recorder {
    private(set) var events: [String] = []
    private(set) var times: [Int64] = []
    let loop: RunLoop

    init(_ loop: RunLoop) {
        self.loop = loop
    }

    func record(_ event: String) {
        events.append(event)
        times.append(loop.now.milliseconds)
    }
}

/// What tasks did, in order; safe from any thread.
final class Transcript: Sendable {
    private let storage = Mutex<[String]>([])

    func append(_ entry: String) {
        storage.withLock { $0.append(entry) }
    }

    var entries: [String] { storage.withLock { $0 } }
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
