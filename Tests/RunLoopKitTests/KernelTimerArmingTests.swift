import CoreMetrics
import MetricsTestKit
import TestSupport
import Testing

@testable import RunLoopKit

/// The loop's kernel timer on the system clock: re-armed only when the next deadline moves earlier
/// than the one it is armed for, its early expiries absorbed by the wait.
@Suite("The timerfd is re-armed only when the next deadline moves earlier")
struct KernelTimerArmingTests {
    /// Runs a system-clock loop through two wake-ups from `wakeUp()`: the first wait arms the
    /// timerfd for a timer 60 s away; after it, `change` replaces that timer. Returns the
    /// `timerfd_settime` calls made by the second wait, and the ones the loop's metrics report.
    private func settingsAfterReplacing(
        _ change: @escaping (RunLoop, RunLoopKit.Timer) -> Void
    ) throws -> (byWaiter: Int, reported: Int64) {
        let metrics = TestMetrics()
        return try withMetricsFactory(metrics) {
            let loop = RunLoop()
            loop.reportMetrics(label: "loop")
            let first = RunLoopKit.Timer(fireAt: loop.now + .seconds(60), interval: .zero, repeats: false) { _ in }
            loop.add(first, forMode: .default)
            var wakes = 0
            var settingsBefore = 0
            var settingsAfter = 0
            let observer = RunLoop.Observer(activities: [.beforeWaiting, .afterWaiting]) { _, activity in
                if activity == .beforeWaiting {
                    // Written before the wait: the wait arms, then ends at once.
                    loop.handle.wakeUp()
                    return
                }
                wakes += 1
                if wakes == 1 {
                    settingsBefore = loop.waiter.timerSettings
                    change(loop, first)
                } else {
                    settingsAfter = loop.waiter.timerSettings
                    loop.stop()
                }
            }
            loop.add(observer, forMode: .default)
            loop.run(mode: .default, until: loop.now + .seconds(120))
            observer.invalidate()
            #expect(settingsBefore == 1, "the first wait arms the timerfd for the timer 60 s away")
            let reported = try metrics.expectCounter(
                "loop_timerfd_settime", [("mode", RunLoop.Mode.default.rawValue)]
            ).totalValue
            return (settingsAfter - settingsBefore, reported)
        }
    }

    @Test("A timer cancelled and a later one added cost no timerfd_settime; an earlier one re-arms it")
    func laterDeadlinesKeepTheArmedTimer() throws {
        let later = try settingsAfterReplacing { loop, first in
            first.invalidate()
            loop.add(
                RunLoopKit.Timer(fireAt: loop.now + .seconds(90), interval: .zero, repeats: false) { _ in },
                forMode: .default)
        }
        #expect(later.byWaiter == 0)
        #expect(later.reported == 1)
        // The positive control: a deadline earlier than the armed one re-arms, and the metric counts it.
        let earlier = try settingsAfterReplacing { loop, first in
            first.invalidate()
            loop.add(
                RunLoopKit.Timer(fireAt: loop.now + .seconds(30), interval: .zero, repeats: false) { _ in },
                forMode: .default)
        }
        #expect(earlier.byWaiter == 1)
        #expect(earlier.reported == 2)
    }

    @Test("An expiry armed for a timer that went away is no wake-up: no pass, no observer, the timer fires once")
    func earlyExpiryIsAbsorbed() {
        let loop = RunLoop()
        let cancelled = RunLoopKit.Timer(fireAt: loop.now + .milliseconds(40), interval: .zero, repeats: false) { _ in }
        loop.add(cancelled, forMode: .default)
        var afterWaiting = 0
        var fired = 0
        let observer = RunLoop.Observer(activities: [.beforeWaiting, .afterWaiting]) { _, activity in
            if activity == .beforeWaiting {
                if afterWaiting == 0 { loop.handle.wakeUp() }
                return
            }
            afterWaiting += 1
            guard afterWaiting == 1 else { return }
            // The timerfd stays armed for 40 ms; the loop's deadline is now 80 ms.
            cancelled.invalidate()
            loop.add(
                RunLoopKit.Timer(fireAt: loop.now + .milliseconds(80), interval: .zero, repeats: false) { _ in
                    fired += 1
                    loop.stop()
                }, forMode: .default)
        }
        loop.add(observer, forMode: .default)
        loop.run(mode: .default, until: loop.now + .seconds(10))
        observer.invalidate()
        #expect(fired == 1)
        #expect(afterWaiting == 2, "the wake-up, then the timer: the expiry at 40 ms woke no pass")
        // At 40 ms the expiry is absorbed and the timerfd re-armed; a thread held off the processor
        // past 40 ms re-arms it directly instead. Two settings either way.
        #expect(loop.waiter.earlyTimerExpiries <= 1)
        #expect(loop.waiter.timerSettings == 2)
    }
}
