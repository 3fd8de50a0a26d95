import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck

@Suite("An alarm's ring and a countdown's end are heard and seen: bell, flash, notification, an alert until a key")
struct AlertTests {
    @Test("An alarm and a countdown ring, flash and notify at their end by default; a table or the form can say no")
    func defaults() throws {
        let config = try Config.parse(
            """
            [[timers]]
            name = "tea"
            drives = "countdown"
            countdown = 60

            [[timers]]
            name = "lunch"
            mechanism = "alarm"
            first_fire = "12:30"

            [[timers]]
            name = "hush"
            drives = "countdown"
            bell = false

            [[timers]]
            name = "beat"
            interval = "1s"
            """)
        let actions = Dictionary(uniqueKeysWithValues: config.timers.map { ($0.name, $0.actions) })
        for name in ["tea", "lunch"] {
            let alert = try #require(actions[name])
            #expect(alert.bell && alert.flash && alert.notify && alert.actsOn == .end, "\(name)")
        }
        #expect(actions["hush"]?.bell == false && actions["hush"]?.flash == true)
        #expect(actions["beat"] == TimerActions(), "a repeating timer is quiet")
        #expect(TimerDefinition.standardScene.allSatisfy { !$0.actions.bell && !$0.actions.notify }, "the SMS demo")
        let quiet = try TimerDefinition.parse(line: "tea 3m countdown quiet", taken: [])
        #expect(!quiet.actions.bell && !quiet.actions.flash && !quiet.actions.notify)
        let beat = try TimerDefinition.parse(line: "beat 1s bell", taken: [])
        #expect(beat.actions.bell && !beat.actions.notify && beat.actions.actsOn == .fire)
        let alarm = try TimerDefinition.parse(line: "lunch 12:30 quiet", taken: [])
        #expect(alarm.kind == .alarm && !alarm.actions.bell)
        #expect(throws: ConfigError.self) { try TimerDefinition.parse(line: "lunch 12:30 once", taken: []) }
    }

    @Test("The end leaves an alert in the status bar beside other messages until a key, which still does its thing")
    func alertUntilAKey() throws {
        let config = try Config.parse(
            "[[timers]]\nname = \"tea\"\ndrives = \"countdown\"\ncountdown = 1\nstart = false\n")
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        _ = state.apply(.launch)
        let tea = try #require(state.rows.first { $0.name == "tea" }).id
        _ = state.apply(.key(.enter))
        let effects = state.apply(
            .fired(tea, .timer(time: .zero + .seconds(1), mode: .default, lateness: .zero, ticks: 1, isManual: false)))
        #expect(state.alert == "tea ended — any key dismisses this")
        #expect(effects.contains(.ring))
        #expect(effects.contains { if case .notify(_, let note) = $0 { note.body == "tea ended" } else { false } })
        _ = state.apply(.notice("uploads resumed"))
        #expect(state.statusLine == "tea ended — any key dismisses this  · uploads resumed")
        _ = state.apply(.key(.tab))
        #expect(state.alert == nil && state.focus != .countdowns, "dismissed, and Tab moved the focus")
    }

    @Test("A countdown that starts with the dashboard counts from its start: its first fire is a second less, no end")
    func countdownStartingAtLaunchCounts() throws {
        let config = try Config.parse("[[timers]]\nname = \"focus\"\ndrives = \"countdown\"\ncountdown = 7200\n")
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let effects = state.apply(.launch)
        let focus = try #require(state.rows.first { $0.name == "focus" })
        #expect(focus.button?.label == "Resend (7200)" && effects.contains(.start(focus.id)))
        let fired = state.apply(
            .fired(
                focus.id, .timer(time: .zero + .seconds(1), mode: .default, lateness: .zero, ticks: 1, isManual: false))
        )
        #expect(state[focus.id].button?.label == "Resend (7199)")
        #expect(state.alert == nil && !fired.contains(.ring), "one second of two hours is no end")
        // The control: one that waits for s stays ready at launch.
        let waiting = try Config.parse(
            "[[timers]]\nname = \"focus\"\ndrives = \"countdown\"\ncountdown = 60\nstart = false\n")
        var ready = DashboardState(scene: .standard(waiting, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        _ = ready.apply(.launch)
        #expect(ready.rows.first { $0.name == "focus" }?.button?.label == "Send")
    }

    @Test("A missing notify-send is said once a session, not at every end")
    func missingNotifierOnce() throws {
        var state = DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let id = try #require(state.rows.first).id
        _ = state.apply(.notified(id, .exited(status: DesktopNotification.notFound, firstLine: "")))
        #expect(state.hint?.contains("notify-send is not installed") == true)
        state.hint = nil
        _ = state.apply(.notified(id, .exited(status: DesktopNotification.notFound, firstLine: "")))
        #expect(state.hint == nil)
    }
}

/// Reduced motion: `TIMERDECK_ANIMATIONS` and `[terminal] animations`.
@Suite("Reduced motion")
struct ReducedMotionTests {
    /// The ripple's row of the standard scene under `animations`.
    private func ripple(_ animations: Animations) throws -> (state: DashboardState, row: RowState, launch: [Effect]) {
        var config = Config()
        config.animations = animations
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let launch = state.apply(.launch)
        let row = try #require(state.rows.first { $0.definition.drives == .ripple })
        return (state, row, launch)
    }

    @Test("none: the ripple waits for s; basic: it runs at 10 frames a second at most; full: as designed")
    func rippleFollowsTheSetting() throws {
        let still = try ripple(.none)
        #expect(!still.launch.contains(.start(still.row.id)) && !still.row.run.isScheduled)
        let basic = try ripple(.basic)
        #expect(basic.launch.contains(.start(basic.row.id)) && basic.row.definition.refreshRate == 10)
        let full = try ripple(.full)
        #expect(full.launch.contains(.start(full.row.id)) && full.row.definition.refreshRate == 60)
    }

    @Test("none: an end alerts, rings and notifies but flashes no row")
    func noFlashWithoutMotion() throws {
        var config = try Config.parse(
            "[terminal]\nanimations = \"none\"\n[[timers]]\nname = \"tea\"\ndrives = \"countdown\"\ncountdown = 1\n")
        #expect(config.animations == .none)
        config.animations = .none
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        _ = state.apply(.launch)
        let tea = try #require(state.rows.first { $0.name == "tea" }).id
        let effects = state.apply(
            .fired(tea, .timer(time: .zero + .seconds(1), mode: .default, lateness: .zero, ticks: 1, isManual: false)))
        #expect(state.alert == "tea ended — any key dismisses this" && effects.contains(.ring))
        #expect(!state[tea].isFlashing && !effects.contains { if case .endFlash = $0 { true } else { false } })
    }

    @Test("An unknown TIMERDECK_ANIMATIONS names the variable, a near value and what it accepts")
    func unknownValueIsRefused() {
        let error = #expect(throws: ConfigError.self) { try Animations.validate(environmentValue: "nnoe") }
        #expect(error?.message.hasPrefix("TIMERDECK_ANIMATIONS=") == true)
        #expect(error?.message.contains("(accepted: none, basic or full)") == true, "\(String(describing: error))")
        #expect(throws: Never.self) { try Animations.validate(environmentValue: "basic") }
    }
}
