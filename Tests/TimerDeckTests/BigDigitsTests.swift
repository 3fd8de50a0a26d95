import KeptTimers
import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

/// The focus view (`5`): the selected timer in digits that fit the terminal.
@Suite("The focus view in big digits")
struct BigDigitsTests {
    @Test("The large font scales up to fill the room, then the small font, then plain text")
    func digitsFit() {
        #expect(BigDigitsPanel.digitLines("00:57", width: 80, height: 20).count == 15, "scale 3")
        #expect(BigDigitsPanel.digitLines("00:57", width: 26, height: 5).count == 5, "the large font as it is")
        let small = BigDigitsPanel.digitLines("00:57", width: 20, height: 4)
        #expect(small == ["█▀█ █▀█ ▄ █▀▀ ▀▀█", "█ █ █ █ ▄ ▀▀█   █", "▀▀▀ ▀▀▀   ▀▀▀   ▀"])
        #expect(BigDigitsPanel.digitLines("00:57", width: 12, height: 2) == ["00:57"])
        for size in [(80, 20), (26, 5), (20, 4), (12, 2), (5, 1)] {
            let lines = BigDigitsPanel.digitLines("1:02:03", width: size.0, height: size.1)
            #expect(lines.allSatisfy { CharacterWidth.of($0) <= max(size.0, 7) } && lines.count <= max(size.1, 1))
        }
    }

    @Test("The time: a button's count, else the time to the next fire rounded up, --:-- when nothing is due")
    func timeText() throws {
        #expect(ClockText.countdown(seconds: 57) == "00:57")
        #expect(ClockText.countdown(seconds: 3_723) == "1:02:03")
        var state = DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: Size(width: 80, height: 24))
        _ = state.apply(Event.launch)
        _ = state.apply(Event.key(.enter))
        let id = state.rows[0].id
        let ticker = try #require(state.tickerRow)
        let loop = LoopStatus(
            mode: .default, depth: 1, commonModes: [.default, .tracking], now: Instant(nanoseconds: 10_000_000_000),
            startTime: .zero)
        let next = RowReading(nextFire: Instant(nanoseconds: 10_200_000_000), framesPerSecond: nil)
        let reading = [id: next, ticker.id: next]
        let snapshot = DashboardSnapshot(state: state, loop: loop, readings: reading)
        #expect(BigDigitsPanel.timeText(state.rows[0], of: snapshot) == "01:00")
        #expect(BigDigitsPanel.timeText(state.rows[1], of: snapshot) == "--:--", "idle")
        #expect(BigDigitsPanel.timeText(ticker, of: snapshot) == "00:01")
    }

    @Test("An overtime countdown shows +MM:SS, a stopwatch its time run, an alarm its time left")
    func everydayTimes() throws {
        let config = try Config.parse(
            """
            [[timers]]
            name = "tea"
            drives = "countdown"
            countdown = 2
            overtime = true
            start = false

            [[timers]]
            name = "run"
            drives = "stopwatch"
            interval = "100ms"
            start = false

            [[timers]]
            name = "lunch"
            mechanism = "alarm"
            first_fire = "12:30"
            """)
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: Size(width: 80, height: 24))
        _ = state.apply(Event.launch)
        let row = { (name: String) in try #require(state.rows.first { $0.name == name }) }
        let (tea, run, lunch) = try (row("tea").id, row("run").id, row("lunch").id)
        _ = state.apply(Event.key(.enter))
        for second in Int64(1)...5 {
            _ = state.apply(
                Event.fired(
                    tea,
                    .timer(
                        time: Instant(nanoseconds: second * 1_000_000_000), mode: .default, lateness: .zero,
                        ticks: 1, isManual: false)))
        }
        _ = state.apply(Event.stopwatch(run, .start, time: .zero))
        let now = Instant(nanoseconds: 62_500_000_000)
        let loop = LoopStatus(mode: .default, depth: 1, commonModes: [.default], now: now, startTime: .zero)
        let readings = [lunch: RowReading(nextFire: now + .seconds(5_400), framesPerSecond: nil)]
        let snapshot = DashboardSnapshot(state: state, loop: loop, readings: readings)
        #expect(BigDigitsPanel.timeText(state[tea], of: snapshot) == "+00:03")
        #expect(BigDigitsPanel.timeText(state[run], of: snapshot) == "01:02")
        #expect(BigDigitsPanel.timeText(state[lunch], of: snapshot) == "1:30:00")
        let plus = BigDigitsPanel.digitLines("+00:03", width: 80, height: 5)
        #expect(plus.map { String($0.prefix(5)) } == ["     ", "  █  ", "█████", "  █  ", "     "])
    }

    @Test("M2: a second later only the cells of the last digit change; a timer held by tracking says so")
    func onlyChangedCells() throws {
        let size = Size(width: 80, height: 24)
        let screen = GridScreen(size: size)
        let view = DashboardView(screen: screen)
        var state = DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: size)
        _ = state.apply(Event.key(.enter))
        _ = state.apply(Event.key(.character("5")))
        let id = state.rows[0].id
        state[id].button?.tick()
        func snapshot(mode: RunLoop.Mode) -> DashboardSnapshot {
            DashboardSnapshot(
                state: state,
                loop: LoopStatus(
                    mode: mode, depth: 1, commonModes: [.default, .tracking], now: .zero, startTime: .zero),
                readings: [:])
        }
        view.render(snapshot(mode: .default), parts: .all)
        #expect(screen.snapshot().contains("sms-default · default mode"))
        state[id].button?.tick()
        view.render(snapshot(mode: .default), parts: .all)
        let changes = screen.lastChanges
        #expect(!changes.isEmpty)
        // "00:58" is 67 cells wide at scale 3, centred: its last digit takes the 15 cells from column 58.
        #expect(changes.allSatisfy { $0.columns.lowerBound >= 58 && $0.columns.upperBound <= 73 }, "\(changes)")
        #expect(changes.allSatisfy { (4..<19).contains($0.row) }, "\(changes)")
        let digits = screen.snapshot().split(separator: "\n", omittingEmptySubsequences: false)[4..<19]
        view.render(snapshot(mode: .tracking), parts: .all)
        #expect(screen.snapshot().contains("paused: tracking"))
        #expect(
            screen.snapshot().split(separator: "\n", omittingEmptySubsequences: false)[4..<19] == digits,
            "the digits stay")
    }
}
