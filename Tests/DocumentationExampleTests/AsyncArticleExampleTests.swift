import RunLoopKit
import Testing
import TimeUnits

/// The examples of the async article (AsyncCode.md) do what the article says.
@Suite("Async article examples")
struct AsyncArticleExampleTests {
    private func milliseconds(_ instants: [Instant]) -> [Int64] {
        instants.map { $0.nanoseconds / Nanoseconds.perMillisecond }
    }

    @Test("Actors and tasks: the task's call reaches the actor on the loop, then the run finishes")
    func actorOnTheLoop() {
        let (entries, end) = asyncActorExample()
        #expect(milliseconds(entries) == [0])
        #expect(milliseconds([end]) == [0])  // finished at once, not at the 1 s limit
    }

    @Test("Sleeps: a default-mode sleep waits through 3 s of tracking and ends at 3 s, back in the default mode")
    func sleepWaitsWhileTracking() {
        #expect(milliseconds(asyncSleepInModesExample()) == [3_000])
    }

    @Test("Clocks: the actor's sleeps on the virtual clock beat at 0.5 s, 1 s and 1.5 s, every run")
    func heartbeatIsExact() {
        for _ in 0..<10 {
            #expect(milliseconds(asyncHeartbeatExample()) == [500, 1_000, 1_500])
        }
    }

    @Test("Sequences: three ticks, then the timer stops and the run finishes at 3 s")
    func ticksStopWithTheIteration() {
        let (firedAt, end) = asyncTicksExample()
        #expect(milliseconds(firedAt) == [1_000, 2_000, 3_000])
        #expect(milliseconds([end]) == [3_000])  // not at the 10 s limit
    }
}
