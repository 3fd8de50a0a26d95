import Glibc
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("The wake-up eventfd is read only when a wake-up was written to it")
struct WakeUpEventfdTests {
    /// Adds a wake-up for work to `loop`'s eventfd behind its back: nothing marks it written.
    private func writeUnmarkedWakeUp(to loop: RunLoop) {
        var value = LoopShared.wakeUpForWork
        #expect(write(loop.shared.wakeDescriptor, &value, 8) == 8)
    }

    @Test("A drain reads the eventfd after a wake-up, or when epoll saw it readable, and not otherwise")
    func drainReadsOnlyWrittenOrReadableWakeUps() {
        let (loop, _) = makeVirtualLoop()
        loop.shared.drainWakeUps(readable: true)
        writeUnmarkedWakeUp(to: loop)
        #expect(!loop.shared.drainWakeUps())
        #expect(loop.shared.drainWakeUps(readable: true))
        loop.handle.wakeUp()
        #expect(loop.shared.mayHaveWakeUps)
        #expect(loop.shared.drainWakeUps())
        #expect(!loop.shared.mayHaveWakeUps)
    }

    @Test("A virtual loop jumps to its next deadline without polling its wake-ups when none was written")
    func virtualJumpSkipsThePollWithoutWrittenWakeUps() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        loop.add(
            RunLoop.Observer(activities: .afterWaiting) { _, _ in recorder.record("afterWaiting") }, forMode: .default)
        Timer.scheduledTimer(withInterval: .seconds(1), repeats: false, on: loop) { _ in recorder.record("timer") }
        loop.shared.drainWakeUps(readable: true)
        writeUnmarkedWakeUp(to: loop)
        loop.run(until: ms(1_000))
        // A poll would have read the unmarked wake-up and woken at 0 ms for a pass of its own.
        #expect(recorder.events == ["afterWaiting", "timer"])
        #expect(recorder.times == [1_000, 1_000])
        // It is still in the eventfd: the next wait that polls or blocks reads it.
        #expect(loop.shared.drainWakeUps(readable: true))
    }

    @Test("A virtual loop polls before it jumps when another thread's wake-up was written")
    func virtualJumpPollsWrittenWakeUps() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        loop.add(
            RunLoop.Observer(activities: .afterWaiting) { _, _ in recorder.record("afterWaiting") }, forMode: .default)
        Timer.scheduledTimer(withInterval: .seconds(1), repeats: false, on: loop) { _ in
            recorder.record("timer")
        }
        // Written during the pass, after its start has read the earlier ones.
        let handle = loop.handle
        loop.add(
            RunLoop.Observer(activities: .beforeWaiting, repeats: false) { _, _ in handle.wakeUp() },
            forMode: .default)
        loop.run(until: ms(1_000))
        #expect(recorder.events == ["afterWaiting", "afterWaiting", "timer"])
        #expect(recorder.times == [0, 1_000, 1_000])
    }
}
