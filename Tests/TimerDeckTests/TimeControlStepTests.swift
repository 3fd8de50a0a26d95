import RunLoopKit
import Testing

@testable import TimerDeck

@Suite("The step key: a paused clock steps from fire date to fire date")
struct TimeControlStepTests {
    @Test("Step: paused, each step jumps to the next fire date and that fire happens, one at a time")
    func stepWalksThroughDeadlines() {
        let control = TimeControl(base: .virtual(VirtualClock()))
        let loop = RunLoop(timeSource: .controlled(control))
        let milliseconds = { (instant: Instant) in instant.nanoseconds / 1_000_000 }
        var fires: [String] = []
        let beat = Timer(fireAt: .zero + .seconds(1), interval: .seconds(1), repeats: true) { _ in
            fires.append("beat \(milliseconds(loop.now))")
        }
        let once = Timer(fireAt: .zero + .milliseconds(1_500), interval: .zero, repeats: false) { _ in
            fires.append("once \(milliseconds(loop.now))")
        }
        loop.add(beat, forMode: .default)
        loop.add(once, forMode: .default)
        control.isPaused = true
        var steps: [Int64?] = []
        for _ in 0..<3 {
            steps.append(control.step(loop).map(milliseconds))
            loop.run(until: .zero)  // C-R3: one pass, no sleep
        }
        #expect(steps == [1_000, 1_500, 2_000])
        #expect(fires == ["beat 1000", "once 1500", "beat 2000"])
        #expect(milliseconds(control.now()) == 2_000 && control.isPaused)
        beat.invalidate()
        #expect(control.step(loop) == nil, "nothing scheduled: no step")
        #expect(milliseconds(control.now()) == 2_000)
    }
}
