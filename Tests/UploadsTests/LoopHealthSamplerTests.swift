import Foundation
import RunLoopKit
import Testing
import Uploads

/// The run loop's health as samples, on the virtual clock so every reading is exact.
@Suite struct LoopHealthSamplerTests {
    /// The reading named `name` whose labels include `labels`, if the sample has one.
    static func reading(_ name: String, _ labels: [String: String], in sample: Sample) -> Double? {
        guard case .loop(let readings) = sample.fields else { return nil }
        return readings.first { reading in
            reading.name == name && labels.allSatisfy { reading.labels[$0.key] == $0.value }
        }?.value
    }

    @Test("Lateness by timer name over each sample's window, fires and missed ticks in total")
    func readingsFollowTheLoop() throws {
        let clock = VirtualClock()
        let loop = RunKitLoop(timeSource: .virtual(clock))
        let health = LoopHealthSampler()
        loop.reportMetrics(factory: health)
        let tick = Timer(fireAt: Instant(nanoseconds: 1_000_000_000), interval: .seconds(1), repeats: true) { _ in }
        loop.setMetricsName("tick", for: tick)
        loop.add(tick, forMode: .default)
        // A callout at 3.2 s keeps the thread 2.5 s: the tick due at 4 s fires at 5.7 s, 5 s is missed.
        let busy = Timer(fireAt: Instant(nanoseconds: 3_200_000_000), interval: .zero, repeats: false) { _ in
            clock.busy(.milliseconds(2_500))
        }
        loop.add(busy, forMode: .default)
        let tickLabels = ["mode": RunKitLoop.Mode.default.rawValue, "timer": "tick"]

        loop.run(mode: .default, until: Instant(nanoseconds: 3_500_000_000))
        let first = try health.sample(at: Date(timeIntervalSince1970: 3.5))
        #expect(first.kind == .loop)
        #expect(first.takenAtMilliseconds == 3_500)
        #expect(Self.reading("runloop_timer_lateness_max_seconds", tickLabels, in: first) == 0)
        #expect(Self.reading("runloop_timer_fires_total", tickLabels, in: first) == 3)

        loop.run(mode: .default, until: Instant(nanoseconds: 6_500_000_000))
        let second = try health.sample(at: Date(timeIntervalSince1970: 6.5))
        #expect(Self.reading("runloop_timer_lateness_max_seconds", tickLabels, in: second) == 1.7)
        #expect(Self.reading("runloop_timer_fires_total", tickLabels, in: second) == 5)
        #expect(
            Self.reading("runloop_timer_missed_ticks_total", ["mode": RunKitLoop.Mode.default.rawValue], in: second)
                == 1)
        #expect(Self.reading("runloop_wakeups_total", ["reason": "timer"], in: second) == 6)
        #expect(Self.reading("runloop_asleep_ratio", [:], in: second) != nil)

        let idle = try health.sample(at: Date(timeIntervalSince1970: 7))
        #expect(
            Self.reading("runloop_timer_lateness_max_seconds", tickLabels, in: idle) == nil,
            "no fire since the last sample: no lateness reading")
        #expect(Self.reading("runloop_timer_fires_total", tickLabels, in: idle) == 5)
    }
}
