import RunLoopKit
import TerminalUI
import Testing
import TimeUnits
import Uploads

import struct Foundation.Date

@testable import TimerDeck

/// A dashboard of defined timers only, on a virtual clock: the loop runs in a chosen mode until a
/// chosen time, and the fire log says what fired when.
@available(*, noasync)
final class DefinedTimerRig {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let driver: DashboardDriver

    init(_ timers: [TimerDefinition]) {
        let scene = Scene(timers: timers, uploadsLabel: nil, gestureQuiet: .milliseconds(250), logCapacity: 1_000)
        driver = DashboardDriver(
            scene: scene, loop: loop, screen: GridScreen(size: DashboardLayout.minimumSize), pipeline: nil,
            rendersOnChange: false)
        RunLoop.withCurrent(loop) { driver.launch() }
    }

    /// Runs the loop in `mode` until `milliseconds` after the start.
    func run(_ mode: RunLoop.Mode = .default, untilMilliseconds milliseconds: Int64) {
        _ = RunLoop.withCurrent(loop) {
            loop.run(mode: mode, until: Instant(nanoseconds: milliseconds * Nanoseconds.perMillisecond))
        }
    }

    /// The log as "time-in-ms name mode lateness-in-ms ×ticks" lines.
    var fires: [String] {
        driver.state.log.records.map { record in
            "\(record.time.nanoseconds / Nanoseconds.perMillisecond) \(record.timer) \(record.mode?.description ?? "-") "
                + "late \(record.lateness.nanoseconds / Nanoseconds.perMillisecond) ×\(record.ticks)"
        }
    }

    /// The run state of the first row.
    var run: RunState { driver.state.rows[0].run }
}

func timer(
    _ name: String, _ kind: TimerDefinition.Kind = .runLoop, every interval: Duration = .seconds(1),
    mode: RunLoop.Mode = .default, repeats: Bool = true, firstFire: TimerDefinition.FirstFire = .afterInterval
) -> TimerDefinition {
    var timer = TimerDefinition()
    timer.name = name
    timer.kind = kind
    timer.interval = interval
    timer.mode = mode
    timer.repeats = repeats
    timer.firstFire = firstFire
    return timer
}

@Suite("Defined timers behave per the semantics (M1, M2, C-T5, C-T6, G1, G2)")
struct DefinedTimerScenarioTests {
    @Test("M1/M2/C-T6: a default-mode run loop timer fires on its grid, pauses while tracking, then fires once late")
    @available(*, noasync)
    func defaultModeTimerPausesWhileTracking() {
        let rig = DefinedTimerRig([timer("beat")])
        rig.run(untilMilliseconds: 2_500)
        rig.run(.tracking, untilMilliseconds: 5_500)
        rig.run(untilMilliseconds: 6_000)
        #expect(
            rig.fires == [
                "1000 beat default late 0 ×1", "2000 beat default late 0 ×1",
                // Due at 3 s, fired on return to the default mode at 5.5 s: 4 s and 5 s were skipped.
                "5500 beat default late 2500 ×3", "6000 beat default late 0 ×1",
            ])
    }

    @Test("M2: a common-mode run loop timer keeps firing while tracking")
    @available(*, noasync)
    func commonModeTimerFiresWhileTracking() {
        let rig = DefinedTimerRig([timer("beat", mode: .common)])
        rig.run(untilMilliseconds: 1_500)
        rig.run(.tracking, untilMilliseconds: 3_500)
        #expect(
            rig.fires == [
                "1000 beat default late 0 ×1", "2000 beat tracking late 0 ×1", "3000 beat tracking late 0 ×1",
            ])
    }

    @Test("M2: a tracking-mode run loop timer fires only while tracking")
    @available(*, noasync)
    func trackingModeTimerFiresOnlyWhileTracking() {
        let rig = DefinedTimerRig([timer("drag", every: .milliseconds(500), mode: .tracking)])
        rig.run(untilMilliseconds: 2_200)
        #expect(rig.fires.isEmpty)
        rig.run(.tracking, untilMilliseconds: 3_000)
        // Due at 500 ms; the first tracking pass at 2.2 s fires it once for the four points missed (C-T6).
        #expect(
            rig.fires == [
                "2200 drag tracking late 1700 ×4", "2500 drag tracking late 0 ×1", "3000 drag tracking late 0 ×1",
            ])
    }

    @Test("C-T5: a one-shot run loop timer fires once, then its row is idle")
    @available(*, noasync)
    func oneShotRunLoopTimerEnds() {
        let rig = DefinedTimerRig([timer("tea", every: .seconds(3), repeats: false)])
        rig.run(untilMilliseconds: 10_000)
        #expect(rig.fires == ["3000 tea default late 0 ×1"])
        #expect(rig.run == .idle)
    }

    @Test("first_fire now: a run loop timer fires at the start, then on its grid")
    @available(*, noasync)
    func runLoopTimerFiringAtStart() {
        let rig = DefinedTimerRig([timer("now", firstFire: .now)])
        rig.run(untilMilliseconds: 2_000)
        #expect(
            rig.fires == ["0 now default late 0 ×1", "1000 now default late 0 ×1", "2000 now default late 0 ×1"])
    }

    @Test("G1/G2: a dispatch timer fires at once and keeps going while tracking")
    @available(*, noasync)
    func dispatchTimerIgnoresModes() {
        let rig = DefinedTimerRig([timer("gcd", .dispatch, firstFire: .now)])
        rig.run(untilMilliseconds: 1_500)
        rig.run(.tracking, untilMilliseconds: 2_500)
        #expect(
            rig.fires == [
                "0 gcd default late 0 ×1", "1000 gcd default late 0 ×1", "2000 gcd tracking late 0 ×1",
            ])
    }

    @Test("C-T5/C-G2: a one-shot dispatch timer fires once after its interval, then its row is idle")
    @available(*, noasync)
    func oneShotDispatchTimerEnds() {
        let rig = DefinedTimerRig([timer("egg", .dispatch, every: .seconds(2), repeats: false)])
        rig.run(untilMilliseconds: 10_000)
        #expect(rig.fires == ["2000 egg default late 0 ×1"])
        #expect(rig.run == .idle)
    }
}

@Suite("A defined timer's flash")
struct DefinedTimerFlashTests {
    @Test("A flashing timer's row is highlighted from its fire for half a second, also while tracking")
    @available(*, noasync)
    func rowFlashesForHalfASecond() {
        var definition = timer("tea")
        definition.actions.flash = true
        let rig = DefinedTimerRig([definition])
        rig.run(untilMilliseconds: 999)
        #expect(!rig.driver.state.rows[0].isFlashing)
        rig.run(untilMilliseconds: 1_000)
        #expect(rig.driver.state.rows[0].isFlashing)
        rig.run(.tracking, untilMilliseconds: 1_499)
        #expect(rig.driver.state.rows[0].isFlashing)
        rig.run(.tracking, untilMilliseconds: 1_500)
        #expect(!rig.driver.state.rows[0].isFlashing)
    }
}

@Suite("A defined timer is a row like the built-in ones")
struct DefinedTimerRowTests {
    @Test("s starts it, f fires it by hand (T2), p holds it, x invalidates it, and the inspector shows each state")
    func keysActOnDefinedTimer() throws {
        var config = Config()
        config.timers = [timer("tea", every: .seconds(2))]
        config.timers[0].startsAtLaunch = false
        // Focus the inspector and select its seventh row (after the six built-in ones).
        let snapshots = try runHeadless(
            """
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
            key x
            snapshot
            """, config: config)
        #expect(line(snapshots[0].screen, containing: "tea ").contains("RunLoop Timer 2s default  idle"))
        #expect(line(snapshots[1].screen, containing: "tea ").contains("running          in 1.0s"))
        #expect(snapshots[1].screen.contains("2.000s   tea         default"))
        #expect(line(snapshots[2].screen, containing: "tea ").contains("suspended"))
        #expect(snapshots[2].screen.contains("3.000s   tea"), "the fire by hand is logged")
        #expect(!snapshots[2].screen.contains("4.000s   tea"), "no fire while held")
        #expect(line(snapshots[3].screen, containing: "tea ").contains("invalid"))
    }

    @Test("D1/M4: a defined display link runs in its mode at its refresh rate and waits while the loop tracks")
    func definedDisplayLink() throws {
        let config = try Config.parse(
            "[[timers]]\nname = \"frames\"\nmechanism = \"displaylink\"\nrefresh_rate = 10\nmode = \"default\"\n")
        #expect(config.timers.first?.refreshRate == 10)
        let snapshots = try runHeadless("size 120x40\nwait 1s\nsnapshot\nkey t\nwait 1s\nsnapshot\n", config: config)
        try #require(snapshots.count == 2)
        #expect(line(snapshots[0].screen, containing: "frames ").contains("DisplayLink 10/1 default  running"))
        #expect(line(snapshots[1].screen, containing: "frames ").contains("waiting for mode"))
        // Written back through the field table, it loads again to the same timer.
        let written = TimerDefinition.configText(config.timers)
        #expect(written.contains("mechanism = \"displaylink\"") && written.contains("refresh_rate = 10"))
        #expect(try Config.parse(written).timers == config.timers)
    }

    @Test("With the loop sampler, display link frames are counted under their row's name, the ticker's too")
    @available(*, noasync)
    func displayLinkFramesCarryTheRowName() throws {
        var ticker = timer("ticker", .displayLink)
        ticker.drives = .ripple
        ticker.refreshRate = 10
        var frames = timer("frames", .displayLink)
        frames.refreshRate = 10
        let rig = DefinedTimerRig([ticker, frames])
        let health = LoopHealthSampler()
        rig.loop.reportMetrics(factory: health)
        rig.run(untilMilliseconds: 1_000)
        guard case .loop(let readings) = try health.sample(at: Date(timeIntervalSince1970: 1)).fields else {
            Issue.record("not a loop sample")
            return
        }
        let fires = Dictionary(
            readings.filter { $0.name == "runloop_timer_fires_total" }.map { ($0.labels["timer"] ?? "-", $0.value) },
            uniquingKeysWith: +)
        #expect(fires["ticker"] == 10 && fires["frames"] == 10, "\(fires)")
    }

    @Test("A refresh rate outside 1…240 names the timer, the field, the value and the range")
    func refreshRateOutOfRange() {
        #expect {
            try Config.parse("[[timers]]\nname = \"frames\"\nmechanism = \"displaylink\"\nrefresh_rate = 0\n")
        } throws: { error in
            "\(error)".contains("timer \"frames\": field 'timers.refresh_rate' = 0") && "\(error)".contains("1…240")
        }
    }

    @Test("M3: a run loop timer defined in the custom mode fires only while the loop runs it")
    func definedTimerInModal() throws {
        let config = try Config.parse("[[timers]]\nname = \"inmodal\"\nmode = \"modal\"\ninterval = \"1s\"\n")
        let snapshots = try runHeadless(
            "size 120x40\nwait 2500ms\nsnapshot\nkey M\nwait 2s\nsnapshot\n", config: config)
        try #require(snapshots.count == 2)
        #expect(!snapshots[0].screen.contains("s   inmodal "))
        #expect(snapshots[1].screen.contains("s   inmodal     modal"))
    }
}
