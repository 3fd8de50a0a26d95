import RunLoopKit
import RunLoopKitTesting

/// The CPU of one callout of each of RunLoopKit's timer kinds, on one virtual loop each, moved
/// through with `RunLoop.advance(by:)`: with no waiting in the run, what is measured is the work.
/// Every kind but the display link makes `count` one-shot callouts due over one virtual second; the
/// display link is one link at 60 Hz run for `count` frames.
enum CalloutBench {
    /// A timer kind, named as its row is.
    enum Kind: String, CaseIterable {
        case timer = "RunLoopKit Timer"
        case timeoutSet = "RunLoopKit TimeoutSet"
        case displayLink = "RunLoopKit DisplayLink"
        case dispatchTimer = "RunLoopKit DispatchTimer on the loop"
        case compatTimer = "RunLoopKitFoundationCompat Timer"
        case sleep = "RunLoopKit sleep"
    }

    /// Makes the callouts of `kind` on a fresh virtual loop, then runs the loop until all are done.
    static func run(_ kind: Kind, count: Int) throws -> CalloutResult {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        let counter = Counter()
        var spread = DeadlineSpread()
        let deadline = { Instant(nanoseconds: loop.now.nanoseconds + 1 + spread.next(below: 1_000_000_000)) }
        let before = ResourceUsage.now()
        // What the run keeps alive until it is measured.
        let objects: [AnyObject]
        var span = Duration.seconds(1)
        switch kind {
        case .timer:
            objects = (0..<count).map { _ in
                let timer = Timer(fireAt: deadline(), interval: .zero, repeats: false) { _ in counter.fired += 1 }
                loop.add(timer, forMode: .default)
                return timer
            }
        case .timeoutSet:
            let timeouts = TimeoutSet(on: loop, handler: counter)
            for _ in 0..<count { timeouts.schedule(at: deadline()) }
            objects = [timeouts]
        case .displayLink:
            let link = DisplayLink(refreshRate: 60) { _ in counter.fired += 1 }
            link.add(to: loop, forMode: .default)
            objects = [link]
            span = .nanoseconds(Int64(count) * Nanoseconds.perSecond / 60)
        case .dispatchTimer:
            objects = (0..<count).map { _ in
                let timer = DispatchTimer(runLoop: loop) { _ in counter.fired += 1 }
                timer.schedule(deadline: .at(deadline()))
                timer.resume()
                return timer
            }
        case .compatTimer:
            objects = compatTimers(count: count, on: loop) { counter.fired += 1 }
        case .sleep:
            let handle = loop.handle
            let bound = LoopBound(counter, on: loop)
            for _ in 0..<count {
                let due = deadline()
                Task(executorPreference: handle.taskExecutor) {
                    // Counted only when the sleep ends at its deadline: a thrown sleep is no callout.
                    guard (try? await handle.sleep(until: due)) != nil else { return }
                    bound.value.fired += 1
                }
            }
            objects = []
        }
        let made = ResourceUsage.now()
        try loop.advance(by: span)
        let after = withExtendedLifetime((loop, objects)) { ResourceUsage.now() }
        return CalloutResult(
            peer: kind.rawValue, callouts: count,
            makeNanoseconds: Double(made.cpuNanoseconds - before.cpuNanoseconds) / Double(count),
            cpuPerCalloutNanoseconds: Double(after.cpuNanoseconds - made.cpuNanoseconds) / Double(count),
            fired: counter.fired)
    }

    /// Counts the callouts, on the loop's thread.
    private final class Counter: TimeoutHandler {
        var fired = 0

        func timeoutFired(_ timeout: TimeoutSet.Timeout, tag: UInt64) {
            fired += 1
        }
    }
}

/// One kind's callouts on a virtual loop: the CPU to make them and to run each.
struct CalloutResult: Codable {
    var peer: String
    var callouts: Int
    /// CPU per callout to make and schedule its timer (for the display link, one link over all frames).
    var makeNanoseconds: Double
    /// CPU per callout while the loop runs them all.
    var cpuPerCalloutNanoseconds: Double
    var fired: Int
}
