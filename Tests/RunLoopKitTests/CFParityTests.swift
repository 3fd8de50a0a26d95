import Dispatch
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

/// Behaviours where RunLoopKit once differed from CFRunLoop or libdispatch, each named after its
/// rule id in runloop-reference.md; Darwin's NSObject performs (C-P1, C-P2) are
/// RunLoopKitFoundationCompat's, tested with it.
@Suite("CF parity: C-T6/C-T7, C-T8, C-D1, C-G3, C-G4, C-M12/C-G10")
struct CFParityTests {
    @Test("C-T8, decisions.md 1: an invalidated repeating timer reports the last date it fired")
    func invalidatedTimerKeepsLastFireDate() {
        let (loop, _) = makeVirtualLoop()
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { _ in }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(250))
        #expect(timer.fireDate == ms(300), "scheduled next")
        timer.invalidate()
        #expect(timer.fireDate == ms(200))
    }

    @Test("C-T8: a timer invalidated before it ever fired keeps its fire date")
    func neverFiredTimerKeepsFireDate() {
        let (loop, _) = makeVirtualLoop()
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { _ in }
        loop.add(timer, forMode: .default)
        timer.invalidate()
        #expect(timer.fireDate == ms(100))
    }

    @Test("C-D1, decisions.md 2: a link whose mode starts running exactly at a vsync calls back at that vsync")
    func displayLinkCallsBackAtExactVsync() {
        let (loop, _) = makeVirtualLoop()
        var times: [Int64] = []
        let link = DisplayLink { _ in times.append(loop.now.nanoseconds) }
        link.add(to: loop, forMode: .tracking)
        // 50 ms is vsync 3 of a 60 Hz grid starting at 0.
        let gesture = Timer(fireAt: ms(50), interval: .zero, repeats: false) { _ in
            loop.run(mode: .tracking, until: ms(60))
        }
        loop.add(gesture, forMode: .default)
        loop.run(until: ms(70))
        #expect(times == [50_000_000])
    }

    @Test("C-G3: a schedule of now set inside the handler delivers at once on the virtual backend")
    func rescheduleToNowInHandlerDeliversAtOnce() {
        let (loop, _) = makeVirtualLoop()
        var events: [(Int64, Int)] = []
        var timer: DispatchTimer?
        timer = DispatchTimer(runLoop: loop) { event in
            events.append((loop.now.milliseconds, event.ticks))
            if events.count == 1 { timer?.schedule(deadline: .now, repeating: .milliseconds(100)) }
        }
        timer?.schedule(deadline: .after(.milliseconds(100)), repeating: .milliseconds(100))
        timer?.resume()
        loop.run(until: ms(250))
        #expect(events.map(\.0) == [100, 100, 200])
        #expect(events.map(\.1) == [1, 1, 1])
        timer?.cancel()
    }

    @Test("C-G3: a schedule of now set inside the handler delivers at once on libdispatch (bounded wait)")
    func rescheduleToNowInHandlerOnLibdispatch() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            var count = 0
            var timer: DispatchTimer?
            timer = DispatchTimer(runLoop: loop) { _ in
                count += 1
                if count == 1 {
                    timer?.schedule(deadline: .now, repeating: .seconds(3_600))
                } else {
                    loop.stop()
                }
            }
            loop.add(RunLoop.Source {}, forMode: .default)
            timer?.schedule(deadline: .after(.milliseconds(1)), repeating: .seconds(3_600))
            timer?.resume()
            #expect(
                loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped,
                "the second event came, not an hour later")
            #expect(count == 2)
            timer?.cancel()
        }
    }

    @Test("C-G4: ticks missed while the loop was busy reach a loop-delivered libdispatch timer coalesced")
    func libdispatchTicksCoalesceWhileLoopIsBusy() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            var deliveries = 0
            var ticks = 0
            let timer = DispatchTimer(runLoop: loop) { event in
                deliveries += 1
                ticks += event.ticks
                if deliveries == 1 {
                    // The stall under test: the loop's thread is busy for 100 ms (ten periods).
                    let end = TimeSource.system.now() + .milliseconds(100)
                    while TimeSource.system.now() < end { usleep(10_000) }
                }
                if ticks >= 20 { loop.stop() }
            }
            loop.add(RunLoop.Source {}, forMode: .default)
            timer.schedule(deadline: .now, repeating: .milliseconds(10))
            timer.resume()
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped)
            #expect(deliveries < ticks, "the ticks that fell in the stall came as fewer events than ticks")
            timer.cancel()
        }
    }

    @Test("C-M12/C-G10: a loop-delivered libdispatch timer does not fire in a mode that is not common")
    func libdispatchTimerWaitsOutNonCommonMode() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            var modes: [RunLoop.Mode?] = []
            let timer = DispatchTimer(runLoop: loop) { _ in
                modes.append(loop.currentMode)
                loop.stop()
            }
            loop.add(RunLoop.Source {}, forMode: .default)
            loop.add(RunLoop.Source {}, forMode: "custom")
            timer.schedule(deadline: .now, repeating: .milliseconds(2))
            timer.resume()
            loop.run(mode: "custom", until: TimeSource.system.now() + .milliseconds(50))
            #expect(modes.isEmpty, "nothing in the non-common mode")
            #expect(loop.run(mode: .default, until: TimeSource.system.now() + .seconds(30)) == .stopped)
            // Back in a common mode it fires (more than once if libdispatch ticked again before the
            // stop took effect, under load), and only there.
            #expect(!modes.isEmpty && modes.allSatisfy { $0 == .default }, "\(modes)")
            timer.cancel()
        }
    }
}
