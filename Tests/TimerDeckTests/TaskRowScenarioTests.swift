import RunLoopKit
import TerminalUI
import Testing
import TimeUnits

@testable import TimerDeck

@Suite("A task row sleeps on the loop in its modes (C-X1, C-X2, M2)")
struct TaskRowScenarioTests {
    @Test("M2/C-X2: a default-mode task pauses while tracking, wakes once late on return, then sleeps a whole interval")
    @available(*, noasync)
    func defaultModeTaskPausesWhileTracking() {
        let rig = DefinedTimerRig([timer("nap", .task)])
        rig.run(untilMilliseconds: 2_500)
        rig.run(.tracking, untilMilliseconds: 5_500)
        rig.run(untilMilliseconds: 7_000)
        #expect(
            rig.fires == [
                "1000 nap default late 0 ×1", "2000 nap default late 0 ×1",
                // Due at 3 s, woken on return to the default mode at 5.5 s; a task has no grid.
                "5500 nap default late 2500 ×1", "6500 nap default late 0 ×1",
            ])
    }

    @Test("M2: a common-mode task keeps waking while tracking")
    @available(*, noasync)
    func commonModeTaskGoesOn() {
        let rig = DefinedTimerRig([timer("nap", .task, mode: .common)])
        rig.run(untilMilliseconds: 1_500)
        rig.run(.tracking, untilMilliseconds: 3_500)
        #expect(
            rig.fires == [
                "1000 nap default late 0 ×1", "2000 nap tracking late 0 ×1", "3000 nap tracking late 0 ×1",
            ])
    }

    @Test("C-T5: a one-shot task wakes once, then its row is idle; first_fire now wakes it at the start")
    @available(*, noasync)
    func oneShotAndFirstFireNow() {
        let once = DefinedTimerRig([timer("tea", .task, every: .seconds(3), repeats: false)])
        once.run(untilMilliseconds: 10_000)
        #expect(once.fires == ["3000 tea default late 0 ×1"])
        #expect(once.run == .idle)
        let now = DefinedTimerRig([timer("now", .task, firstFire: .now)])
        now.run(untilMilliseconds: 2_000)
        #expect(now.fires == ["0 now default late 0 ×1", "1000 now default late 0 ×1", "2000 now default late 0 ×1"])
    }

    @Test("Stopping, suspending and moving cancel the sleep: nothing stays scheduled, no wake-up is reported")
    @available(*, noasync)
    func cancellationLeavesNothingScheduled() {
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        var fires: [Instant] = []
        RunLoop.withCurrent(loop) {
            let adapter = TaskRowTimer(
                loop: loop, mode: .default, interval: .seconds(1), tolerance: .zero, repeats: true,
                firstFireDelay: { _ in .seconds(1) },
                onFire: { fire in
                    if case .wake(let time, _, _) = fire { fires.append(time) }
                })
            loop.addCommonMode(.tracking)  // as the dashboard's loop has it
            // A timer an hour away keeps the modes from being empty, so each run lasts until its limit.
            let hour = Instant(nanoseconds: 3_600_000_000_000)
            loop.add(Timer(fireAt: hour, interval: .zero, repeats: false) { _ in }, forMode: .common)
            adapter.start(for: RowState(timer("nap", .task), id: RowID(number: 0)))
            loop.run(mode: .default, until: Instant(nanoseconds: 1_500_000_000))
            #expect(fires == [Instant(nanoseconds: 1_000_000_000)])
            #expect(adapter.nextFire == Instant(nanoseconds: 2_000_000_000))

            adapter.suspend()
            #expect(adapter.nextFire == nil)
            #expect(loop.nextFireDate(forMode: .default) == hour, "the sleep's timer is gone")
            loop.run(mode: .default, until: Instant(nanoseconds: 3_000_000_000))
            #expect(fires.count == 1)
            adapter.resume()  // 0.5 s was left: due at 3.5 s.
            adapter.move(to: .tracking)
            #expect(adapter.nextFire == Instant(nanoseconds: 3_500_000_000))
            loop.run(mode: .default, until: Instant(nanoseconds: 4_000_000_000))
            #expect(fires.count == 1, "moved to tracking, it does not wake in the default mode")
            loop.run(mode: .tracking, until: Instant(nanoseconds: 4_200_000_000))
            #expect(fires.last == Instant(nanoseconds: 4_000_000_000), "it wakes at once while tracking")

            adapter.stop()
            #expect(adapter.nextFire == nil)
            #expect(loop.nextFireDate(forMode: .tracking) == hour)
            loop.run(mode: .tracking, until: Instant(nanoseconds: 10_000_000_000))
            #expect(fires.count == 2)
        }
    }

    @Test("s p m f x d act on a task row, and a run of the same script draws the same screens")
    func keysAndDeterminism() throws {
        var config = Config()
        config.timers = [timer("nap", .task, every: .seconds(2))]
        config.timers[0].startsAtLaunch = false
        let script = """
            size 120x40
            key tab
            key tab
            \(String(repeating: "key down\n", count: 6))snapshot
            key s
            wait 3s
            snapshot
            key f
            key p
            wait 5s
            snapshot
            key p
            key m
            wait 3s
            snapshot
            key x
            snapshot
            key d
            wait 2s
            snapshot
            """
        let snapshots = try runHeadless(script, config: config)
        try #require(snapshots.count == 6)
        #expect(line(snapshots[0].screen, containing: "nap ").contains("Task sleep 2s    default  idle"))
        #expect(line(snapshots[1].screen, containing: "nap ").contains("running          in 1.0s"))
        #expect(snapshots[1].screen.contains("2.000s   nap         default"))
        #expect(line(snapshots[2].screen, containing: "nap ").contains("suspended"))
        #expect(snapshots[2].screen.contains("3.000s   nap"), "the fire by hand is logged")
        #expect(!snapshots[2].screen.contains("4.000s   nap"), "no wake-up while held")
        // Resumed at 8 s with 1 s left, then moved to tracking: it waits while the loop runs the default mode.
        #expect(line(snapshots[3].screen, containing: "nap ").contains("tracking waiting for mode"))
        #expect(!snapshots[3].screen.contains("9.000s   nap"))
        #expect(line(snapshots[4].screen, containing: "nap ").contains("invalid"))
        #expect(snapshots[5].screen.contains("deleted nap"))
        #expect(try runHeadless(script, config: config).map(\.screen) == snapshots.map(\.screen))
    }

    @Test(
        "C-X1: in modal, not common, its sleep ends but the wake-up waits for a common mode; once C made it common, it runs there"
    )
    func wakeUpsRunInTheExecutorModes() throws {
        var config = Config()
        config.timers = [timer("nap", .task, every: .milliseconds(500), mode: .modal)]
        let snapshots = try runHeadless(
            "size 120x40\nkey M\nwait 2s\nsnapshot\nkey M\nwait 10ms\nsnapshot\nkey M\nkey C\nwait 1s\nsnapshot\n",
            config: config)
        try #require(snapshots.count == 3)
        #expect(!snapshots[0].screen.contains("s   nap "), "due at 500 ms, its wake-up waits")
        #expect(snapshots[1].screen.contains("2.000s   nap         default  1.5s   1"), "it runs back in default")
        #expect(snapshots[2].screen.contains("2.500s   nap         modal    0µs    1"))
        #expect(snapshots[2].screen.contains("3.000s   nap         modal    0µs    1"))
    }

    @Test("The config names it mechanism = \"task\"; it is on the uptime clock and has a mode")
    func configValue() throws {
        let config = try Config.parse("[[timers]]\nname = \"nap\"\nmechanism = \"task\"\nmode = \"common\"\n")
        #expect(config.timers.first?.kind == .task)
        #expect(config.timers.first?.mode == .common)
        #expect(try Config.parse(TimerDefinition.configText(config.timers)).timers == config.timers)
        #expect {
            try Config.parse("[[timers]]\nname = \"nap\"\nmechanism = \"task\"\nclock = \"wall\"\n")
        } throws: {
            "\($0)".contains("clock")
        }
    }
}

@Suite("The phases page counts executor jobs (C-X1)")
struct PhaseJobsTests {
    @Test("A common-mode task row's start and each wake-up are one executor job each, in the second they ran")
    func taskRowJobsAreCounted() throws {
        var config = Config()
        config.timers = [timer("nap", .task, every: .milliseconds(500), mode: .common)]
        let snapshots = try runHeadless("size 120x40\nkey 3\nwait 2500ms\nsnapshot\n", config: config)
        try #require(snapshots.count == 1)
        let screen = snapshots[0].screen
        #expect(screen.contains("second passes   jobs  /pass  timer"))
        let jobs = ["0s", "1s"].map { second in
            line(screen, containing: "    \(second) ").split(separator: " ").dropFirst(3).first.map(String.init)
        }
        // 0 s: the task's start and its wake-up at 500 ms; 1 s: the wake-ups at 1 s and 1.5 s.
        #expect(jobs == ["2", "2"])
    }

    @Test("C-X1: three tasks due at the same instant wake in one pass: /pass counts the jobs of that pass")
    func jobsPerPass() throws {
        var config = Config()
        config.timers = ["a", "b", "c"].map { timer($0, .task, every: .milliseconds(500), mode: .common) }
        let snapshots = try runHeadless("size 120x40\nkey 3\nwait 2500ms\nsnapshot\n", config: config)
        try #require(snapshots.count == 1)
        let columns = ["0s", "1s"].map { second in
            line(snapshots[0].screen, containing: "    \(second) ").split(separator: " ").dropFirst(2).prefix(3)
                .map(String.init)
        }
        // passes, jobs, the most jobs in one pass: at 0 s the three starts and the three wake-ups
        // at 500 ms, three to a pass; at 1 s the wake-ups at 1 s and 1.5 s.
        #expect(columns.map { Array($0.dropFirst()) } == [["6", "3"], ["6", "3"]])
    }
}

@Suite("A task row follows the time controls (G3): its sleeps are timers on the dashboard's clock")
struct TaskRowTimeControlTests {
    /// The fire-log lines of `screen` for the task.
    private func fires(_ screen: String) -> [String] {
        screen.split(separator: "\n").map(String.init).filter { $0.contains("s   nap ") }
    }

    @Test("Paused nothing wakes; a step lands on its deadline; at ¼× a second takes four; a simulated sleep holds it")
    func timeControls() throws {
        var config = Config()
        config.timers = [timer("nap", .task)]
        let snapshots = try runHeadless(
            """
            size 120x40
            key space
            wait 5s
            snapshot
            key .
            snapshot
            key space
            key <
            wait 3s
            snapshot
            wait 1s
            snapshot
            key >
            key z
            wait 1s
            snapshot
            """, config: config)
        try #require(snapshots.count == 5)
        let fireTimes = snapshots.map { fires($0.screen).map { String($0.dropFirst(2).prefix(6)) } }
        #expect(fireTimes[0].isEmpty, "5 s paused: no wake-up")
        #expect(fireTimes[1] == ["1.000s"], "the step lands on the sleep's deadline")
        #expect(line(snapshots[2].screen, containing: "nap ").contains("in 250ms"), "3 s at ¼× is 750 ms")
        #expect(fireTimes[3] == ["1.000s", "2.000s"])
        // 30 s of simulated sleep stop the uptime clock its sleeps are on: one second later, one wake-up.
        #expect(fireTimes[4] == ["1.000s", "2.000s", "3.000s"])
    }
}

@Suite("A task row in the inspector, the trace and the timeline (C-X2, M2)")
struct TaskRowViewsTests {
    /// A default-mode task and a common-mode one, both every second from the start.
    static let config: Config = {
        var config = Config()
        config.timers = [timer("nap", .task), timer("tick", .task, mode: .common)]
        return config
    }()

    /// The loop is held in the tracking mode from 2.5 s to 5.5 s; at 5.7 s `m` moves nap to tracking.
    static let script = """
        size 120x40
        wait 2500ms
        key t
        wait 1500ms
        snapshot
        wait 1500ms
        key t
        wait 200ms
        snapshot
        key m
        wait 1s
        key 4
        snapshot
        """

    @Test("M2: the inspector shows a task's mechanism and mode, waiting while tracking, then its late wake-up")
    func inspector() throws {
        let snapshots = try runHeadless(Self.script, config: Self.config)
        try #require(snapshots.count == 3)
        #expect(
            line(snapshots[0].screen, containing: "│ nap ").contains(
                "nap         Task sleep 1s    default  waiting for mode due      0µs    0"))
        #expect(
            line(snapshots[0].screen, containing: "│ tick ").contains(
                "tick        Task sleep 1s    common   running          in 1.0s  0µs    0"))
        // Due at 3 s, woken on the return at 5.5 s: 2.5 s late, one tick, the next a whole interval on.
        #expect(
            line(snapshots[1].screen, containing: "│ nap ").contains(
                "nap         Task sleep 1s    default  running          in 800ms 2.5s   0"))
    }

    /// A trace line of a fire of `timer` (mechanism task) at `time` ms, due at `due` ms, at `depth`.
    private func fireLine(_ timer: String, at time: Int64, due: Int64, mode: String, depth: Int = 1) -> String {
        let (fired, scheduled) = (time * Nanoseconds.perMillisecond, due * Nanoseconds.perMillisecond)
        return #"{"event":"fire","t_ns":\#(fired),"timer":"\#(timer)","mechanism":"task","mode":"\#(mode)","#
            + #""scheduled_ns":\#(scheduled),"lateness_ns":\#(fired - scheduled),"ticks":1,"depth":\#(depth)}"#
    }

    @Test("C-X2: the trace has a task's wake-ups as fires of mechanism task, the late one with its deadline")
    @available(*, noasync)
    func trace() throws {
        let lines = try TraceTests().trace(of: Self.script, config: Self.config).split(separator: "\n").map(String.init)
        let expected: [String] = [
            fireLine("nap", at: 1_000, due: 1_000, mode: "default"),
            fireLine("nap", at: 2_000, due: 2_000, mode: "default"),
            fireLine("nap", at: 5_500, due: 3_000, mode: "default"),
            #"{"event":"mode","t_ns":5700000000,"timer":"nap","mode":"tracking","depth":1}"#,
        ]
        #expect(lines.filter { $0.contains(#""timer":"nap""#) } == expected)
        #expect(lines.contains(fireLine("tick", at: 3_000, due: 3_000, mode: "tracking", depth: 2)))
    }

    @Test("M2: on the timeline a default-mode task's lane is empty while tracking (shaded) and marks its late wake-up")
    func timeline() throws {
        let snapshots = try runHeadless(Self.script, config: Self.config)
        try #require(snapshots.count == 3)
        // 106 columns of 60 s / 106 (about 0.57 s) up to 6.7 s, then the box's border: nap at 1 and
        // 2 s; nothing at 3, 4, 5 s, where tick ran in the tracking mode (░); ▌ late at 5.5 s; then,
        // moved to tracking at 5.7 s, nothing in the default mode.
        #expect(line(snapshots[2].screen, containing: "│nap ").hasSuffix("│ │ ░ ░░▌  │"))
        #expect(line(snapshots[2].screen, containing: "│tick ").hasSuffix("│ │ │ ││ │ │"))
    }
}
