import Dispatch

/// libdispatch: `DispatchSourceTimer` on a serial queue.
enum DispatchPeer: QueuePeer {
    static let name = "Dispatch"

    /// A bare `DispatchSourceTimer`.
    struct Timer: QueueTimer {
        let source: DispatchSourceTimer

        init(queue: DispatchQueue, handler: @escaping @Sendable () -> Void) {
            source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler(handler: handler)
        }

        init(queue: DispatchQueue, counting progress: FireProgress) {
            source = DispatchSource.makeTimerSource(queue: queue)
            source.setEventHandler { progress.record() }
        }

        func start(at deadline: Int64, repeating interval: Int64?, leeway: Int64) {
            source.schedule(
                deadline: DispatchTime(uptimeNanoseconds: UInt64(max(deadline, 0))),
                repeating: interval.map { .nanoseconds(Int($0)) } ?? .never, leeway: .nanoseconds(Int(leeway)))
            source.activate()
        }

        func cancel() { source.cancel() }
    }
}
