import Dispatch
import RunLoopKit

/// RunLoopKit's `DispatchTimer` on a serial queue: the wrapper's cost over bare `DispatchSourceTimer`
/// (``DispatchPeer``), measured by the same code.
enum DispatchTimerPeer: QueuePeer {
    static let name = "RunLoopKit DispatchTimer"

    /// A `DispatchTimer` on the queue.
    struct Timer: QueueTimer {
        let timer: DispatchTimer

        init(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
            timer = DispatchTimer(queue: queue) { _ in handler() }
        }

        init(queue: DispatchQueue, counting progress: FireProgress) {
            timer = DispatchTimer(queue: queue) { _ in progress.record() }
        }

        func start(at deadline: Int64, repeating interval: Int64?, leeway: Int64) {
            timer.schedule(
                deadline: .at(Instant(nanoseconds: deadline)), repeating: interval.map { .nanoseconds($0) },
                leeway: .nanoseconds(leeway))
            timer.resume()
        }

        func cancel() { timer.cancel() }
    }
}
