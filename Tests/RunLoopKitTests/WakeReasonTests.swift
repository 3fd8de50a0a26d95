import Glibc
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Why the loop woke: RunLoop.lastWakeReason (runloop-reference C-R1, C-R6)")
struct WakeReasonTests {
    @Test(
        "C-R1: an after-waiting observer reads input, block, wake-up, timer and timeout, in the order they woke the loop"
    )
    func reasonsInOrder() throws {
        let (loop, _) = makeVirtualLoop()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let input = RunLoop.FileDescriptorSource(fileDescriptor: ends[0]) {
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)
        }
        loop.add(input, forMode: .default)
        // Each poke happens just before a sleep, so it is what ends that sleep.
        var pokes: [() -> Void] = [
            {
                var byte: UInt8 = 1
                _ = write(ends[1], &byte, 1)
            },
            { loop.handle.perform {} },
            { loop.handle.wakeUp() },
        ]
        var reasons: [RunLoop.WakeReason?] = []
        let observer = RunLoop.Observer(activities: [.beforeWaiting, .afterWaiting]) { _, activity in
            if activity == .beforeWaiting {
                if !pokes.isEmpty { pokes.removeFirst()() }
            } else {
                reasons.append(loop.lastWakeReason)
            }
        }
        loop.add(observer, forMode: .default)
        loop.add(Timer(fireAt: ms(500), interval: .zero, repeats: false) { _ in }, forMode: .default)
        loop.run(until: ms(1_000))
        #expect(reasons == [.input, .block, .wakeUp, .timer, .timeout])
    }

    @Test("C-R1: without an after-waiting observer nothing is worked out")
    func nothingWithoutObserver() {
        let (loop, _) = makeVirtualLoop()
        var fires = 0
        loop.add(Timer(fireAt: ms(100), interval: .zero, repeats: false) { _ in fires += 1 }, forMode: .default)
        loop.run(until: ms(1_000))
        #expect(fires == 1)
        #expect(loop.lastWakeReason == nil)
    }
}
