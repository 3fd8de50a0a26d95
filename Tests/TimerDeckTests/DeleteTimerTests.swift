import Testing

@testable import TimerDeck

@Suite("d deletes the selected timer; row numbers are never reused")
struct DeleteTimerTests {
    /// Two defined timers after the six standard rows: "tea" every second, "beat" every 2 s.
    private static let config: Config = {
        var config = Config()
        for (name, seconds) in [("tea", 1), ("beat", 2)] {
            var timer = TimerDefinition()
            timer.name = name
            timer.interval = .seconds(Int64(seconds))
            timer.startsAtLaunch = true
            config.timers.append(timer)
        }
        return config
    }()

    /// The fire-log lines of `screen` for `timer`.
    private func fires(_ screen: String, of timer: String) -> Int {
        screen.split(separator: "\n").filter { $0.contains("s   \(timer) ") }.count
    }

    @Test("Deleting a timer stops it for good; the row after it keeps its own timer, fires and state")
    func deleteKeepsTheOthers() throws {
        let snapshots = try runHeadless(
            """
            size 120x40
            key tab
            key tab
            \(String(repeating: "key down\n", count: 6))wait 2500ms
            key d
            snapshot
            wait 4s
            snapshot
            """, config: Self.config)
        try #require(snapshots.count == 2)
        let (deleted, later) = (snapshots[0].screen, snapshots[1].screen)
        #expect(deleted.contains("deleted tea"))
        #expect(!deleted.contains("tea         RunLoop"), "gone from the inspector")
        #expect(fires(deleted, of: "tea") == 2, "its past fires stay in the log")
        #expect(fires(later, of: "tea") == 2, "and no new ones come")
        #expect(fires(later, of: "beat") == 3, "beat fires at 2, 4 and 6 s")
        #expect(line(later, containing: "beat        RunLoop").contains("running"))
    }

    @Test("An SMS row can be deleted; an upload job cannot (the pipeline needs both), and the hint says how")
    func uploadJobsStay() throws {
        let snapshots = try runHeadless(
            "size 120x40\nkey tab\nkey tab\nkey d\nsnapshot\n\(String(repeating: "key down\n", count: 3))key d\nsnapshot\n",
            config: Self.config)
        try #require(snapshots.count == 2)
        #expect(snapshots[0].screen.contains("deleted sms-default"))
        #expect(snapshots[0].screen.components(separatedBy: "[ Send").count - 1 == 2, "its SMS button is gone")
        #expect(snapshots[1].screen.contains("sampler drives the uploads: to go without them, remove its [[timers]]"))
        #expect(snapshots[1].screen.contains("sampler     RunLoop"))
    }

    @Test("A timer added after a deletion gets a new row number: the deleted one's is not reused")
    func numbersAreNotReused() {
        var state = DashboardState(
            scene: .standard(Self.config, uploadsLabel: nil), size: .init(width: 120, height: 40))
        _ = state.apply(.focus(.inspector))
        for _ in 0..<7 { _ = state.apply(.key(.down)) }
        #expect(state.selectedRow?.name == "beat")
        let effects = state.apply(.key(.character("d")))
        #expect(effects.contains(.deleteTimer(RowID(number: 5))))
        _ = state.apply(.key(.character("a")))
        for character in "tick 3s" { _ = state.apply(.key(.character(character))) }
        let added = state.apply(.key(.enter))
        // Six rows were made (no uploads here): the new one is number 6, where an index would reuse 5.
        #expect(added.contains(.addTimer(RowID(number: 6))))
        #expect(state.rows.map(\.id.number) == [0, 1, 2, 3, 4, 6])
        // A late fire of the deleted row is dropped, not applied to another row.
        #expect(
            state.apply(
                .fired(
                    RowID(number: 7), .timer(time: .zero, mode: .default, lateness: .zero, ticks: 1, isManual: false))
            ).isEmpty)
    }
}
