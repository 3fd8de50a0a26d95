import Foundation
import RunLoopKit
import TerminalUI
import TestSupport
import Testing
import TimeUnits

@testable import TimerDeck

@Suite("A timer's hook: a real /bin/sh process with the fire in its environment, stopped at its limit")
struct HookTests {
    @Test("A hook sees the timer's name, mechanism, mode, scheduled and actual fire time and lateness")
    func hookSeesItsEnvironment() {
        let hook = Hook(
            command:
                "echo \"$TIMERDECK_TIMER $TIMERDECK_MECHANISM $TIMERDECK_MODE $TIMERDECK_SCHEDULED_NS "
                + "$TIMERDECK_FIRED_NS $TIMERDECK_LATENESS_NS\"; echo second line",
            timeLimit: .seconds(30))
        let environment = [
            "TIMERDECK_TIMER": "tea", "TIMERDECK_MECHANISM": "runloop", "TIMERDECK_MODE": "default",
            "TIMERDECK_SCHEDULED_NS": "1000", "TIMERDECK_FIRED_NS": "1500", "TIMERDECK_LATENESS_NS": "500",
        ]
        #expect(
            hook.run(environment: environment) == .exited(status: 0, firstLine: "tea runloop default 1000 1500 500"))
    }

    @Test("A failing hook's exit status and first line are reported")
    func failingHookIsReported() {
        let hook = Hook(command: "echo no such thing >&2; exit 3", timeLimit: .seconds(30))
        #expect(hook.run(environment: [:]) == .exited(status: 3, firstLine: "no such thing"))
    }

    @Test("A hanging hook is stopped at its limit, with what it started")
    func hangingHookIsStopped() {
        let hook = Hook(command: "echo waiting; sleep 60 & sleep 60", timeLimit: .milliseconds(200))
        #expect(hook.run(environment: [:]) == .timedOut(firstLine: "waiting"))
    }

    @Test("A hook that floods its output is read without blocking and stopped at its limit; one line is kept")
    func floodingHookIsStopped() {
        let hook = Hook(command: "yes flood", timeLimit: .milliseconds(200))
        #expect(hook.run(environment: [:]) == .timedOut(firstLine: "flood"))
    }

    @Test("After the dashboard stops its hooks, a hook still waiting for a thread does not start")
    func noHookStartsAfterStopAll() throws {
        let scratch = try ScratchDirectory()
        let marker = scratch.path("started").path
        let groups = HookGroups()
        groups.stopAll()
        let hook = Hook(command: "touch '\(marker)'", timeLimit: .seconds(30))
        #expect(hook.run(environment: [:], groups: groups) == .failedToStart("the dashboard is quitting"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    @Test("A hook that closes its output and goes on is stopped at its limit")
    func hookClosingItsOutputIsStopped() {
        let hook = Hook(command: "exec >&- 2>&-; sleep 60", timeLimit: .milliseconds(300))
        #expect(hook.run(environment: [:]) == .timedOut(firstLine: ""))
    }

    @Test("A hook still running when its timer fires again is not started twice; its end is logged")
    func hookNeverRunsTwiceAtOnce() {
        var definition = TimerDefinition()
        definition.name = "tea"
        definition.actions.hook = "sleep 5"
        var state = DashboardState(
            scene: Scene(timers: [definition], uploadsLabel: nil, gestureQuiet: .seconds(1), logCapacity: 100),
            size: DashboardLayout.minimumSize)
        let row = RowID(number: 0)
        func fire(_ seconds: Int64) -> [Effect] {
            state.apply(
                .fired(
                    row,
                    .scheduled(at: Instant(nanoseconds: seconds * Nanoseconds.perSecond))))
        }
        #expect(fire(1).contains { if case .runHook = $0 { true } else { false } })
        #expect(!fire(2).contains { if case .runHook = $0 { true } else { false } })
        #expect(state.log.records.last?.note == "hook still running; not started again")
        _ = state.apply(
            .hookFinished(row, .exited(status: 0, firstLine: "done"), time: Instant(nanoseconds: 2_500_000_000)))
        #expect(state.log.records.last?.note == "hook exit 0: done")
        #expect(fire(3).contains { if case .runHook = $0 { true } else { false } })
    }

    @Test(
        "A hook's times count from the dashboard's start as the trace's t_ns does; its end keeps the fire's mode and is no fire in the log's count"
    )
    func hookTimesMatchTheTrace() {
        var definition = TimerDefinition()
        definition.name = "tea"
        definition.actions.hook = "true"
        // Started 100 s into the machine's uptime: the hook's times count from there, not from boot.
        var state = DashboardState(
            scene: Scene(timers: [definition], uploadsLabel: nil, gestureQuiet: .seconds(1), logCapacity: 100),
            size: DashboardLayout.minimumSize, startTime: Instant(nanoseconds: 100_000_000_000))
        let row = RowID(number: 0)
        let effects = state.apply(
            .fired(
                row,
                .timer(
                    time: Instant(nanoseconds: 102_000_000_000), mode: .tracking, lateness: .milliseconds(5),
                    ticks: 1, isManual: false)))
        let environment = effects.compactMap {
            if case .runHook(_, _, let environment) = $0 { environment } else { nil }
        }
        #expect(environment.first?["TIMERDECK_FIRED_NS"] == "2000000000")
        #expect(environment.first?["TIMERDECK_SCHEDULED_NS"] == "1995000000")
        _ = state.apply(
            .hookFinished(row, .exited(status: 0, firstLine: ""), time: Instant(nanoseconds: 102_500_000_000)))
        #expect(state.log.records.map(\.mode) == [.tracking, .tracking])
        #expect(state.log.totalFires == 1 && state.log.count == 2)
        let screen = GridScreen(size: DashboardLayout.minimumSize)
        DashboardView(screen: screen).render(
            DashboardSnapshot(
                state: state,
                loop: LoopStatus(
                    mode: .default, depth: 1, commonModes: [.default], now: Instant(nanoseconds: 103_000_000_000),
                    startTime: state.startTime),
                readings: [:]),
            parts: .all)
        #expect(screen.snapshot().contains("Fire log (1 fire)"))
    }

    @Test(
        "On the dashboard: a one-shot timer rings the bell and runs its hook when it ends; the log shows the hook's line"
    )
    @available(*, noasync)
    func dashboardRingsAndRunsHookAtEnd() {
        var definition = TimerDefinition()
        definition.name = "tea"
        definition.interval = .seconds(3)
        definition.repeats = false
        definition.actions.actsOn = .end
        definition.actions.bell = true
        definition.actions.hook = "echo \"$TIMERDECK_TIMER is ready, $TIMERDECK_LATENESS_NS ns late\""
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        let screen = GridScreen(size: DashboardLayout.minimumSize)
        let driver = DashboardDriver(
            scene: Scene(timers: [definition], uploadsLabel: nil, gestureQuiet: .seconds(1), logCapacity: 100),
            loop: loop, screen: screen, pipeline: nil, rendersOnChange: false)
        RunLoop.withCurrent(loop) {
            driver.launch()
            // The virtual clock waits for the running hook (outside work), so its end is logged at 3 s.
            loop.run(mode: .default, until: Instant(nanoseconds: 10_000_000_000))
        }
        #expect(screen.ringCount == 1)
        #expect(driver.state.log.records.map(\.note) == [nil, "hook exit 0: tea is ready, 0 ns late"])
        #expect(driver.state.log.records.map(\.time.nanoseconds) == [3_000_000_000, 3_000_000_000])
    }

    @Test("S1: an SMS row rings and runs its hook when its countdown reaches Send, not before")
    func smsRowActsAtSend() throws {
        let config = try Config.parse(
            "[[timers]]\nname = \"sms\"\ndrives = \"countdown\"\ncountdown = 2\nact_on = \"end\"\nbell = true\n"
                + "hook = \"echo sent\"\nstart = false")
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let row = RowID(number: 0)
        _ = state.apply(.key(.enter))
        func fire(_ seconds: Int64) -> [Effect] {
            state.apply(
                .fired(
                    row,
                    .scheduled(at: Instant(nanoseconds: seconds * Nanoseconds.perSecond))))
        }
        #expect(!fire(1).contains(.ring))
        let atSend = fire(2)
        #expect(state[row].button?.isEnabled == true)
        #expect(atSend.contains(.ring))
        #expect(
            atSend.contains(
                .runHook(
                    row, Hook(command: "echo sent", timeLimit: .seconds(10)),
                    environment: [
                        "TIMERDECK_TIMER": "sms", "TIMERDECK_MECHANISM": "runloop", "TIMERDECK_MODE": "default",
                        "TIMERDECK_SCHEDULED_NS": "2000000000", "TIMERDECK_FIRED_NS": "2000000000",
                        "TIMERDECK_LATENESS_NS": "0", "TIMERDECK_TICKS": "1",
                    ])))
    }
}
