import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck
@testable import Uploads

/// What the panels do with their room at 80×24: whole messages, tables that say they scroll, panels
/// of absent rows giving their space to the others.
@Suite("Room on the screen: whole messages, scrolling tables, absent panels")
struct PanelRoomTests {
    func state(_ config: String, size: Size = DashboardLayout.minimumSize) throws -> DashboardState {
        var state = DashboardState(scene: .standard(try Config.parse(config), uploadsLabel: nil), size: size)
        _ = state.apply(.launch)
        return state
    }

    func screen(of state: DashboardState) -> String {
        let screen = GridScreen(size: state.layout.size)
        DashboardView(screen: screen).render(
            DashboardSnapshot(
                state: state,
                loop: LoopStatus(mode: .default, depth: 1, commonModes: [.default], now: .zero, startTime: .zero),
                readings: [:]),
            parts: .all)
        return screen.snapshot()
    }

    @Test("Without SMS rows and a ripple, the top panels go and the inspector moves up; Tab skips them")
    func absentPanelsGiveTheirRoom() throws {
        var state = try state("[[timers]]\nname = \"tea\"\ninterval = \"3m\"")
        #expect(state.layout.countdowns == nil && state.layout.ticker == nil)
        #expect(state.layout.inspector.row == 1)
        #expect(state.panels == [.inspector, .log])
        #expect(state.focus == .inspector)
        _ = state.apply(.key(.tab))
        #expect(state.focus == .log)
        let text = screen(of: state)
        #expect(!text.contains("SMS resend") && !text.contains("Ripple"))
    }

    @Test("A ripple alone takes the whole width; a custom countdown row shows its timer's name")
    func oneTopPanelTakesTheWidth() throws {
        let ripple = try state("[[timers]]\nname = \"ticker\"\nmechanism = \"displaylink\"\ndrives = \"ripple\"")
        #expect(ripple.layout.countdowns == nil)
        #expect(ripple.layout.ticker == Rect(row: 1, column: 0, width: 80, height: DashboardLayout.topHeight))
        let tea = try state("[[timers]]\nname = \"tea\"\ndrives = \"countdown\"\nstart = false")
        #expect(tea.layout.countdowns?.width == 80)
        #expect(line(screen(of: tea), containing: "[ Send").contains("tea · Timer in default"))
    }

    @Test("An inspector with more rows than lines says which rows it shows")
    func longTableSaysSo() throws {
        let config = (1...10).map { "[[timers]]\nname = \"t\($0)\"\ninterval = \"\($0)s\"" }.joined(separator: "\n")
        var state = try state(config)
        #expect(screen(of: state).contains("Timers (1–6 of 10, ↑↓)"))
        _ = state.apply(.focus(.inspector))
        for _ in 0..<9 { _ = state.apply(.key(.down)) }
        #expect(screen(of: state).contains("Timers (5–10 of 10, ↑↓)"))
    }

    @Test("A reason cut in the upload panel is whole in the help overlay, wrapped")
    func wholeMessageInHelp() throws {
        var state = DashboardState(
            scene: .standard(Config(), uploadsLabel: "dir (test)"), size: DashboardLayout.minimumSize)
        var status = UploadStatus()
        let reason =
            "outbox: the disk holding the outbox database is full; free some space and the samples are saved again"
        status.problem = reason
        _ = state.apply(.pipelineStatus(status))
        #expect(!screen(of: state).contains("free some space"), "the panel cuts it")
        _ = state.apply(.key(.character("?")))
        let help = screen(of: state)
        #expect(help.contains("Messages and keys"))
        let lines = state.helpLines.prefix { !$0.isEmpty }.dropFirst()
        #expect(lines.map { $0.trimmingPrefix("  ") }.joined(separator: " ") == reason)
        #expect(help.contains("full; free some space") && help.contains("and the samples are saved again"))
    }
}
