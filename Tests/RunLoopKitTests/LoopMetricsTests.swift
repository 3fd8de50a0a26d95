import CoreMetrics
import MetricsTestKit
import RunLoopKit
import TestSupport
import Testing
import TimeUnits

/// The loop's health through swift-metrics, on the virtual clock so every figure is exact.
@Suite struct LoopMetricsTests {
    let clock = VirtualClock()
    let metrics = TestMetrics()

    /// `dimensions` after the `mode` of `.default`.
    func inDefault(_ dimensions: [(String, String)] = []) -> [(String, String)] {
        [("mode", RunLoop.Mode.default.rawValue)] + dimensions
    }

    @Test("Fires, lateness per named timer, wake-ups by reason, passes and time asleep, per mode")
    func reportsTheLoopsHealth() throws {
        try withMetricsFactory(metrics) {
            let loop = RunLoop(timeSource: .virtual(clock))
            loop.reportMetrics(label: "loop")
            var ticks = 0
            let tick = Timer(fireAt: Instant(nanoseconds: 1_000_000_000), interval: .seconds(1), repeats: true) { _ in
                ticks += 1
            }
            loop.add(tick, forMode: .default)
            loop.setMetricsName("tick", for: tick)
            // At 3.2 s a callout keeps the thread busy for 2.5 s: the tick due at 4 s fires at 5.7 s,
            // and the one at 5 s is missed (C-T6).
            let busy = Timer(fireAt: Instant(nanoseconds: 3_200_000_000), interval: .zero, repeats: false) { _ in
                clock.busy(.milliseconds(2_500))
            }
            loop.add(busy, forMode: .default)
            loop.run(mode: .default, until: Instant(nanoseconds: 6_500_000_000))

            let named = inDefault([("timer", "tick")])
            #expect(ticks == 5)
            #expect(try metrics.expectCounter("loop_timer_fires", named).totalValue == 5)
            let lateness = try metrics.expectTimer("loop_timer_lateness", named)
            #expect(lateness.values == [0, 0, 0, 1_700_000_000, 0])
            #expect(try metrics.expectCounter("loop_timer_missed_ticks", inDefault()).totalValue == 1)
            #expect(try metrics.expectCounter("loop_timer_fires", inDefault([("timer", "")])).totalValue == 1)
            #expect(
                try metrics.expectCounter("loop_wakeups", inDefault([("reason", "timer")])).totalValue == 6,
                "1, 2, 3 and 3.2 s, at once at 5.7 s (the tick of 4 s already due) and 6 s")
            #expect(try metrics.expectCounter("loop_wakeups", inDefault([("reason", "timeout")])).totalValue == 1)
            // 6.5 s in all, 2.5 s of it busy in a callout: 4 s asleep.
            #expect(try metrics.expectCounter("loop_asleep_nanoseconds", inDefault()).totalValue == 4_000_000_000)
            let ratios = try metrics.expectGauge("loop_asleep_ratio", inDefault()).values
            #expect(ratios.first == 1.0)
            #expect(ratios.allSatisfy { (0...1).contains($0) })
            #expect(try metrics.expectCounter("loop_passes", inDefault()).totalValue == 7)
        }
    }

    @Test("A timer's name goes with it: timers made after it is gone, at whatever address, fire unnamed")
    func namesDoNotOutliveTheirTimer() throws {
        try withMetricsFactory(metrics) { () throws in
            let loop = RunLoop(timeSource: .virtual(clock))
            // Named before reporting is on: the name is the timer's own, not the reporting's.
            do {
                let named = Timer(fireAt: Instant(nanoseconds: 1_000_000_000), interval: .zero, repeats: false) { _ in }
                loop.setMetricsName("gone", for: named)
                loop.reportMetrics(label: "loop")
                loop.add(named, forMode: .default)
                loop.run(mode: .default, until: Instant(nanoseconds: 1_500_000_000))
                #expect(!named.isValid)
            }
            // Each timer is freed before the next is made, so the allocator hands the same few
            // addresses out again; none of them may carry the first timer's name.
            for second in 2...101 {
                let unnamed = Timer(
                    fireAt: Instant(nanoseconds: Int64(second) * Nanoseconds.perSecond), interval: .zero, repeats: false
                ) { _ in }
                loop.add(unnamed, forMode: .default)
                loop.run(
                    mode: .default, until: Instant(nanoseconds: Int64(second) * Nanoseconds.perSecond + 500_000_000))
            }
            #expect(try metrics.expectCounter("loop_timer_fires", inDefault([("timer", "gone")])).totalValue == 1)
            #expect(try metrics.expectCounter("loop_timer_fires", inDefault([("timer", "")])).totalValue == 100)
        }
    }

    @Test("Off by default: a loop that was not asked reports nothing")
    func offByDefault() {
        withMetricsFactory(metrics) {
            let loop = RunLoop(timeSource: .virtual(clock))
            let tick = Timer(fireAt: Instant(nanoseconds: 1_000_000_000), interval: .seconds(1), repeats: true) { _ in }
            loop.add(tick, forMode: .default)
            loop.run(mode: .default, until: Instant(nanoseconds: 3_500_000_000))
            #expect(metrics.counters.isEmpty && metrics.timers.isEmpty)
            loop.reportMetrics()
            loop.run(mode: .default, until: Instant(nanoseconds: 4_500_000_000))
            loop.stopReportingMetrics()
            loop.run(mode: .default, until: Instant(nanoseconds: 6_500_000_000))
            #expect(metrics.counterTotal(label: "runloop_timer_fires") == 1, "only the fire while it was on")
        }
    }
}
