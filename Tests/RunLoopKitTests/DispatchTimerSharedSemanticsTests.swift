import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

/// One semantic suite for both DispatchTimer backends: libdispatch (a run loop on the system clock)
/// and the virtual backend (a run loop on a VirtualClock). On real time it asserts only what is
/// certain, with bounded waits; exact timings are in the virtual-only suite.
@Suite("Dispatch timer semantics, both backends")
struct DispatchTimerSharedSemanticsTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case libdispatch, virtual
        var testDescription: String { rawValue }

        func makeLoop() -> RunLoop {
            switch self {
            case .libdispatch: RunLoop()
            case .virtual: RunLoop(timeSource: .virtual(VirtualClock()))
            }
        }
    }

    /// Runs `loop` until `condition` holds, at most 30 s of the loop's own time.
    private func run(_ loop: RunLoop, until condition: () -> Bool) -> Bool {
        let limit = loop.now + .seconds(30)
        let keepAlive = RunLoop.Source {}
        loop.add(keepAlive, forMode: .default)
        defer { keepAlive.invalidate() }
        while !condition() && loop.now < limit {
            loop.run(mode: .default, until: min(limit, loop.now + .milliseconds(5)))
        }
        return condition()
    }

    @Test("G2/C-G2: a start of now fires without waiting an interval", arguments: Backend.allCases)
    func startNowFires(backend: Backend) {
        let loop = backend.makeLoop()
        var events: [DispatchTimer.Event] = []
        let timer = DispatchTimer(runLoop: loop) { events.append($0) }
        timer.schedule(deadline: .now, repeating: .seconds(3_600))
        timer.resume()
        #expect(run(loop) { !events.isEmpty })
        #expect(events.first?.ticks == 1)
        timer.cancel()
    }

    @Test("G4/C-G6: nothing fires before the first resume", arguments: Backend.allCases)
    func suspendedUntilResumed(backend: Backend) {
        let loop = backend.makeLoop()
        var events = 0
        let timer = DispatchTimer(runLoop: loop) { _ in events += 1 }
        timer.schedule(deadline: .now, repeating: .milliseconds(1))
        loop.add(RunLoop.Source {}, forMode: .default)
        loop.run(mode: .default, until: loop.now + .milliseconds(20))
        #expect(events == 0)
        timer.resume()
        #expect(run(loop) { events > 0 })
        timer.cancel()
    }

    @Test("C-G4/C-G5: ticks missed while suspended come as one event with ticks > 1", arguments: Backend.allCases)
    func suspendedTicksCoalesce(backend: Backend) {
        let loop = backend.makeLoop()
        var events: [DispatchTimer.Event] = []
        let timer = DispatchTimer(runLoop: loop) { events.append($0) }
        timer.schedule(deadline: .after(.milliseconds(1)), repeating: .milliseconds(1))
        timer.resume()
        #expect(run(loop) { !events.isEmpty })
        timer.suspend()
        let suspendedAt = loop.now
        let seen = events.count
        #expect(run(loop) { loop.now >= suspendedAt + .milliseconds(30) })
        let whileSuspended = events.count
        timer.resume()
        #expect(run(loop) { events.count > whileSuspended })
        #expect(whileSuspended - seen <= 1, "at most one event already in flight at the suspend")
        #expect(events[whileSuspended].ticks > 1, "the first event after resume carries the missed ticks")
        timer.cancel()
    }

    @Test("C-G7: after cancel no event arrives and the cancel handler runs once", arguments: Backend.allCases)
    func cancelStopsEvents(backend: Backend) {
        let loop = backend.makeLoop()
        var events = 0
        let cancelled = CancelCount()
        let timer = DispatchTimer(runLoop: loop) { _ in events += 1 }
        timer.schedule(deadline: .now, repeating: .milliseconds(1))
        timer.resume()
        #expect(run(loop) { events > 0 })
        timer.cancel { cancelled.increment() }
        timer.cancel { cancelled.increment() }
        #expect(run(loop) { cancelled.value == 1 })
        let afterCancel = events
        let start = loop.now
        _ = run(loop) { loop.now >= start + .milliseconds(20) }
        #expect(events <= afterCancel + 1, "at most one event already in flight")
        #expect(cancelled.value == 1)
    }
}

/// A thread-safe counter for cancel handlers, which are `@Sendable`.
final class CancelCount: Sendable {
    private let count = Synchronization.Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
