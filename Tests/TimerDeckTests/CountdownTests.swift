import RunLoopKit
import Testing
@testable import TimerDeck

@Suite("SMS countdown (seed S1, decisions.md 12)")
struct CountdownTests {
    @Test("S1: Send, then Resend (60) at the press, two digits, disabled, back to Send after 60 ticks")
    func labelsThroughACountdown() {
        var button = Countdown(seconds: 60)
        #expect(button.label == "Send" && button.isEnabled)
        let accepted = button.press()
        #expect(accepted)
        #expect(button.label == "Resend (60)" && !button.isEnabled)
        button.tick()
        #expect(button.label == "Resend (59)")
        for _ in 0..<58 { button.tick() }
        #expect(button.label == "Resend (01)")
        button.tick()
        #expect(button.label == "Send" && button.isEnabled)
    }

    @Test("S1: a press while counting is ignored")
    func pressWhileCountingIsIgnored() {
        var button = Countdown(seconds: 60)
        button.press()
        button.tick()
        let accepted = button.press()
        #expect(!accepted)
        #expect(button.label == "Resend (59)")
    }

    @Test("S1: a deadline-driven button shows whole seconds left and ends at zero")
    func deadlineDrivenButton() {
        var button = Countdown(seconds: 60)
        button.press()
        button.show(remaining: 42)
        #expect(button.label == "Resend (42)")
        button.show(remaining: 0)
        #expect(button.label == "Send")
    }

    /// A run loop countdown row on a virtual loop, recording its label at 0.9 s into every virtual second.
    private func labels(mode: RunLoop.Mode, trackingFrom start: Int64?, to end: Int64?, until: Int64) -> [Int64: String] {
        let clock = VirtualClock()
        let loop = RunLoop(clock: .virtual(clock))
        loop.addCommonMode(.tracking)
        var log = FireLog(capacity: 100)
        let row = LoopCountdown(name: "sms", seconds: 60, mode: mode, loop: loop, record: { log.append($0) }, changed: {})
        var seen: [Int64: String] = [:]
        let sampler = Timer(fireAt: Instant(nanoseconds: 900_000_000), interval: .seconds(1), repeats: true) { _ in
            seen[loop.now.nanoseconds / 1_000_000_000] = row.countdown.label
        }
        loop.add(sampler, forMode: .common)
        row.press()
        if let start, let end {
            let gesture = Timer(fireAt: Instant(nanoseconds: start * 1_000_000_000 + 500_000_000), interval: .zero, repeats: false) { _ in
                loop.run(mode: .tracking, until: Instant(nanoseconds: end * 1_000_000_000 + 500_000_000))
            }
            loop.add(gesture, forMode: .default)
        }
        loop.run(until: Instant(nanoseconds: until * 1_000_000_000 + 950_000_000))
        return seen
    }

    @Test("S1: a run loop countdown reads Resend (60) at 0 s, (59) at 1 s, (01) at 59 s, Send at 60 s")
    func loopCountdownExactLabels() {
        let seen = labels(mode: .default, trackingFrom: nil, to: nil, until: 61)
        #expect(seen[0] == "Resend (60)")
        #expect(seen[1] == "Resend (59)")
        #expect(seen[59] == "Resend (01)")
        #expect(seen[60] == "Send")
    }

    @Test("M2: a default-mode countdown pauses while tracking, then resumes with one late fire")
    func defaultModeCountdownPausesWhileTracking() {
        let seen = labels(mode: .default, trackingFrom: 10, to: 20, until: 30)
        #expect(seen[10] == "Resend (50)")
        #expect(seen[15] == "Resend (50)", "paused while tracking")
        // The tracking run ends at 20.5 s: one late fire (49), then the grid resumes at 21 s.
        #expect(seen[20] == "Resend (49)")
        #expect(seen[21] == "Resend (48)")
        #expect(seen[30] == "Resend (39)", "ten seconds behind wall time: the ticks were skipped, not queued")
    }

    @Test("M2/M3: a common-mode countdown keeps going while tracking")
    func commonModeCountdownKeepsGoing() {
        let seen = labels(mode: .common, trackingFrom: 10, to: 20, until: 30)
        #expect(seen[15] == "Resend (45)")
        #expect(seen[30] == "Resend (30)")
    }
}
