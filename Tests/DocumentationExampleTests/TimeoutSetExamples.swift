import RunLoopKit

// The examples of TimeoutSet's and TimeoutHandler's documentation comments, compiled (see
// RunLoopKitExamples.swift).

// MARK: TimeoutHandler

final class IdleConnections: TimeoutHandler {
    var closed: [UInt64] = []
    func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {
        closed.append(tag)  // the tag says which connection went idle
    }
}

// MARK: TimeoutSet

private func timeoutSetExample() {
    let loop = RunLoop.current
    let connections = IdleConnections()
    let timeouts = TimeoutSet(on: loop, tolerance: .milliseconds(10), handler: connections)
    let idle = timeouts.schedule(at: loop.now + .seconds(30), tag: 7)
    timeouts.reschedule(idle, to: loop.now + .seconds(60))  // traffic: later, in place
    timeouts.cancel(idle)  // closed: a no-op if it already fired
    timeouts.invalidate()
}
