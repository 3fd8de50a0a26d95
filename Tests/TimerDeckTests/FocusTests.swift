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
    func deleteKeepsTheSelectionOnARow() throws {
        var state = makeState(uploadsLabel: nil)
        _ = state.apply(.key(.down))
        _ = state.apply(.key(.down))
        #expect(state.selectedRow?.name == "sms-gcd")
        _ = state.apply(.key(.character("d")))
        #expect(state.selectedRow?.name == "sms-common")
        let selected = try #require(state.selectedRow)
        #expect(state.apply(.key(.enter)).contains(.start(selected.id)))
    }

    @Test("d on the inspector's last row moves its selection up; rows after a deleted one are still found by id")
    func deleteInTheInspector() {
        var state = makeState(uploadsLabel: nil)
        _ = state.apply(.focus(.inspector))
        let ids = state.rows.map(\.id)
        _ = state.apply(.key(.down))
        _ = state.apply(.key(.character("d")))
        #expect(!state.contains(ids[1]))
        for id in ids where id != ids[1] { #expect(state[id].id == id) }
        for _ in ids { _ = state.apply(.key(.down)) }
        _ = state.apply(.key(.character("d")))
        #expect(state.selectedRow?.id == ids[ids.count - 2], "the row before the deleted last one")
    }
}
