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
}
