import TestSupport
import Testing

@testable import RunLoopKit

/// Cases of swift-corelibs-foundation's Tests/Foundation/TestRunLoop.swift and TestTimer.swift that
/// apply to RunLoopKit, on the virtual clock (so the timings are exact, not ±0.2 s).
@Suite("Foundation parity (TestRunLoop, TestTimer)")
struct FoundationParityTests {
    @Test("test_constants: default and common modes have stable names")
    func constants() {
        #expect(RunLoop.Mode.default.rawValue == "default")
        #expect(RunLoop.Mode.common.rawValue == "common")
        #expect(RunLoop.Mode.tracking.rawValue == "tracking")
    }

    @Test("test_runLoopRunMode: a timer fires inside run(mode:before:) with currentMode set")
    func runLoopRunMode() {
        let (loop, _) = makeVirtualLoop()
        var flag = false
        let timer = Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in
            flag = true
            #expect(loop.currentMode == .default)
        }
        loop.add(timer, forMode: .default)
        #expect(loop.run(mode: .default, before: ms(50)))
        #expect(flag)
        #expect(loop.currentMode == nil)
    }

    @Test("test_runLoopLimitDate: limitDate is the pending timer's fire date")
    func runLoopLimitDate() {
        let (loop, _) = makeVirtualLoop()
        let timer = Timer(fireAt: ms(1_000), interval: .zero, repeats: false) { _ in }
        loop.add(timer, forMode: .default)
        #expect(loop.limitDate(forMode: .default) == ms(1_000))
    }

    @Test("test_runLoopPoll: running until now returns at once")
    func runLoopPoll() {
        let (loop, _) = makeVirtualLoop()
        loop.add(RunLoop.Source {}, forMode: .default)
        #expect(loop.run(until: loop.now) == .timedOut)
        #expect(loop.now == .zero)
    }

    @Test("test_commonModes: a timer added to common fires in the default mode")
    func commonModes() {
        let (loop, _) = makeVirtualLoop()
        var done = false
        let timer = Timer(fireAt: ms(1_000), interval: .zero, repeats: false) { _ in done = true }
        loop.add(timer, forMode: .common)
        loop.run(until: ms(10_000))
        #expect(done)
    }

    @Test("test_addingRemovingPorts: adding twice is idempotent; removing one mode leaves the others")
    func addingRemovingItems() {
        let (loop, _) = makeVirtualLoop()
        let custom: RunLoop.Mode = "Custom"
        let timer = Timer(fireAt: ms(10), interval: .milliseconds(10), repeats: true) { _ in }
        #expect(timer.modes.isEmpty)
        loop.add(timer, forMode: .default)
        loop.add(timer, forMode: .default)
        #expect(timer.modes == [.default])
        loop.add(timer, forMode: custom)
        #expect(timer.modes == [.default, custom])
        loop.remove(timer, forMode: custom)
        #expect(timer.modes == [.default])
        loop.add(timer, forMode: custom)
        #expect(timer.modes == [.default, custom])
        timer.invalidate()
        #expect(timer.modes.isEmpty)
    }

    @Test("test_timerInit: fire date, interval zero for one-shot, valid")
    func timerInit() {
        let oneShot = Timer(fireAt: ms(7), interval: .milliseconds(300), repeats: false) { _ in }
        #expect(oneShot.fireDate == ms(7) && oneShot.interval == .zero && oneShot.isValid)
        let repeating = Timer(fireAt: ms(7), interval: .milliseconds(300), repeats: true) { _ in }
        #expect(repeating.fireDate == ms(7) && repeating.interval == .milliseconds(300) && repeating.isValid)
    }

    @Test("test_timerTickOnce: a one-shot ticks once")
    func timerTickOnce() {
        let (loop, _) = makeVirtualLoop()
        var flag = false
        let timer = Timer(fireAt: ms(10), interval: .zero, repeats: false) { timer in
            #expect(!flag)
            flag = true
            timer.invalidate()
        }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(50))
        #expect(flag)
    }

    @Test("test_timerRepeats: a repeating timer ticks exactly on its interval")
    func timerRepeats() {
        let (loop, _) = makeVirtualLoop()
        var ticks: [Instant] = []
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { timer in
            #expect(timer.interval == .milliseconds(100))
            ticks.append(loop.now)
            if ticks.count == 3 { timer.invalidate() }
        }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(400))
        #expect(ticks == [ms(100), ms(200), ms(300)])
    }

    @Test("test_timerInvalidate: a repeating timer invalidated in its first callout ticks once")
    func timerInvalidate() {
        let (loop, _) = makeVirtualLoop()
        var count = 0
        let timer = Timer(fireAt: ms(10), interval: .milliseconds(10), repeats: true) { timer in
            #expect(timer.isValid)
            count += 1
            timer.invalidate()
            #expect(!timer.isValid)
        }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(50))
        #expect(count == 1)
    }
}
