import TerminalUI
import Testing

@testable import TimerDeck

@Suite("Focus cycles over the panels on screen; a selection always names an existing row")
struct FocusTests {
    private func makeState(uploadsLabel: String?) -> DashboardState {
        DashboardState(scene: .standard(Config(), uploadsLabel: uploadsLabel), size: Size(width: 80, height: 24))
    }

    @Test("With no upload jobs there is no upload panel: Tab and Shift-Tab skip it")
    func tabSkipsTheHiddenUploadsPanel() {
        var state = makeState(uploadsLabel: nil)
        var seen: [Panel] = []
        for _ in 0..<5 {
            _ = state.apply(.key(.tab))
            seen.append(state.focus)
        }
        #expect(seen == [.ticker, .inspector, .log, .countdowns, .ticker])
        _ = state.apply(.focus(.countdowns))
        _ = state.apply(.key(.shiftTab))
        #expect(state.focus == .log)
    }

    @Test("d deletes the last SMS button's timer: the selection moves to the button before it, and Enter presses it")
    func deleteKeepsTheSelectionOnARow() {
        var state = makeState(uploadsLabel: nil)
        _ = state.apply(.key(.down))
        _ = state.apply(.key(.down))
        #expect(state.selectedRow?.name == "sms-gcd")
        _ = state.apply(.key(.character("d")))
        #expect(state.selectedRow?.name == "sms-common")
        let pressed = state.apply(.key(.enter))
        #expect(pressed.contains(.start(state.selectedRow!.id)))
    }
}
