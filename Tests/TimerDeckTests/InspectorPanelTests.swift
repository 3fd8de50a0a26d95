import KeptTimers
import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

/// The inspector's columns size to their content and abbreviate a value that does not fit.
@Suite("The inspector's columns")
struct InspectorPanelTests {
    /// The inspector of a scene with a 250 ms timer and a 24 h timer due in `untilDue`, drawn `width` wide.
    func inspector(width: Int, untilDue: Duration) throws -> [String] {
        let config = try Config.parse(
            """
            [[timers]]
            name = "beat"
            interval = "250ms"

            [[timers]]
            name = "daily-backup-job"
            interval = "24h"
            """)
        let size = Size(width: width, height: 40)
        var state = DashboardState(scene: .standard(config, uploadsLabel: "dir (test)"), size: size)
        _ = state.apply(.launch)
        let day = try #require(state.rows.first { $0.name == "daily-backup-job" })
        let snapshot = DashboardSnapshot(
            state: state,
            loop: LoopStatus(mode: .default, depth: 1, commonModes: [.default], now: .zero, startTime: .zero),
            readings: [day.id: RowReading(nextFire: .zero + untilDue, framesPerSecond: nil)])
        let screen = GridScreen(size: size)
        InspectorPanel.draw(snapshot, on: screen.canvas.region(state.layout.inspector), focused: false)
        return screen.snapshot().split(separator: "\n").map(String.init).filter { !$0.allSatisfy { $0 == " " } }
    }

    @Test("At 120 columns a 250 ms interval, a 24 h interval and a fire a day away are shown whole")
    func wideShowsWholeValues() throws {
        let lines = try inspector(width: 120, untilDue: .seconds(86_399))
        let beat = try #require(lines.first { $0.contains("beat") })
        #expect(beat.contains("RunLoop Timer 250ms "))
        let day = try #require(lines.first { $0.contains("daily-backup-job") })
        #expect(day.contains("RunLoop Timer 24h "))
        #expect(day.contains("in 23h59m59s "))
    }

    @Test("At 80 columns a value that does not fit is abbreviated, never cut into another number")
    func narrowAbbreviates() throws {
        let lines = try inspector(width: 80, untilDue: .seconds(86_350))
        let beat = try #require(lines.first { $0.contains("beat") })
        #expect(beat.contains("250ms "))
        let day = try #require(lines.first { $0.contains("daily-backup") })
        #expect(day.contains("24h "))
        #expect(["in 23h59m10s", "in 23h59m", "in 24h"].contains { day.contains(" \($0) ") }, "a whole form")
        #expect(!day.contains("1439m"))
        #expect(beat.contains("Timer 250ms") && day.contains("Timer 24h"), "a column's cells share one form")
    }

    @Test("The fire log abbreviates a lateness of an hour and shortens a long name with an ellipsis")
    func fireLogAbbreviates() throws {
        let config = try Config.parse("[[timers]]\nname = \"daily-backup-job\"\ninterval = \"24h\"")
        var state = DashboardState(
            scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        _ = state.apply(.launch)
        _ = state.apply(
            .fired(
                RowID(number: 0),
                .timer(
                    time: .zero + .seconds(90_300), mode: .default, lateness: .seconds(3_900), ticks: 1,
                    isManual: false)))
        let screen = GridScreen(size: DashboardLayout.minimumSize)
        FireLogPanel.draw(
            DashboardSnapshot(
                state: state,
                loop: LoopStatus(
                    mode: .default, depth: 1, commonModes: [.default], now: .zero + .seconds(90_300),
                    startTime: .zero),
                readings: [:]),
            on: screen.canvas.region(state.layout.log), focused: false)
        #expect(screen.snapshot().contains(" daily-back… default  1h05m  1"), "\(screen.snapshot())")
    }

    @Test("Durations shorten to their coarser units, rounded")
    func abbreviations() {
        #expect(DurationText.abbreviations(.seconds(86_399)) == ["23h59m59s", "24h"])
        #expect(DurationText.abbreviations(.seconds(86_370)) == ["23h59m30s", "24h"])
        #expect(DurationText.abbreviations(.seconds(86_340)) == ["23h59m00s", "23h59m", "24h"])
        #expect(DurationText.abbreviations(.seconds(245)) == ["4m05s", "4m"])
        #expect(DurationText.abbreviations(.milliseconds(12_500)) == ["12.5s", "13s"])
        #expect(DurationText.abbreviations(.milliseconds(250)) == ["250ms"])
    }
}
