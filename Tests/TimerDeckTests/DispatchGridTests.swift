import Dispatch
import Glibc
import RunLoopKit
import Testing
import TimeUnits

@testable import TimerDeck

@Suite("The dispatch grid: one rule for a dispatch timer's points, lateness and next fire (C-G4)")
struct DispatchGridTests {
    private func ms(_ milliseconds: Int64) -> Instant {
        Instant(nanoseconds: milliseconds * Nanoseconds.perMillisecond)
    }

    @Test("C-G4's example: due at 200 ms every 100 ms, an event at 450 ms stands for 3 points, 50 ms late; next at 500")
    func referenceExample() {
        let grid = DispatchGrid(origin: ms(200), interval: .milliseconds(100))
        #expect(grid.index(at: ms(450)) + 1 == 3)
        #expect(grid.lateness(at: ms(450)) == .milliseconds(50))
        #expect(grid.next(after: ms(450)) == ms(500))
        #expect(grid.next(after: ms(100)) == ms(200), "before the first point, the first point")
        #expect(grid.index(at: ms(100)) == 0 && grid.lateness(at: ms(100)) == .zero)
        #expect(grid.index(at: ms(500)) == 3 && grid.lateness(at: ms(500)) == .zero, "on a point is on time")
    }

    /// A real libdispatch timer source, its queue held past three points: each event's count
    /// (the source's data) is the number of grid points since the previous event, and the events
    /// after the stall are on the grid again. Real time, because libdispatch itself is the subject;
    /// the points are 100 ms apart so that a busy machine's scheduling delay stays well inside one.
    @Test("Against libdispatch: the counts of a stalled timer source are the grid points between its events")
    func matchesLibdispatch() {
        let queue = DispatchQueue(label: "grid-test")
        let source = DispatchSource.makeTimerSource(queue: queue)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var events: [(time: UInt64, count: UInt)] = []
        // Safe: `events` is written on `queue` only, and read after `done` is signalled from there.
        source.setEventHandler {
            events.append((DispatchTime.now().uptimeNanoseconds, source.data))
            if events.count == 4 {
                source.cancel()
                done.signal()
            }
        }
        let first = DispatchTime.now() + .milliseconds(50)
        source.schedule(deadline: first, repeating: .milliseconds(100), leeway: .nanoseconds(0))
        // Hold the queue past the points at 50, 150 and 250 ms: the first event comes at 330 ms or later.
        queue.async { usleep(330_000) }
        source.resume()
        let finished = done.wait(timeout: .now() + .seconds(10))
        #expect(finished == .success)
        guard finished == .success else { return }
        let grid = DispatchGrid(
            origin: Instant(nanoseconds: Int64(first.uptimeNanoseconds)), interval: .milliseconds(100))
        var points: Int64 = 0
        for event in events {
            points += Int64(event.count)
            #expect(grid.index(at: Instant(nanoseconds: Int64(event.time))) + 1 == points, "\(events)")
        }
        #expect(events.first?.count ?? 0 >= 3, "the stall's points came as one event")
    }
}
