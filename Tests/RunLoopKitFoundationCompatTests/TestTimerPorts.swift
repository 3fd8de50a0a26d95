import RunLoopKitFoundationCompat
import Testing

/// What swift-corelibs-foundation's Tests/Foundation/TestTimer.swift checks, in Foundation's names
/// against RunLoopKitFoundationCompat, on real time with the original's tolerances.
@Suite("Foundation's TestTimer, in Foundation's names")
struct TestTimerPorts {
    @Test("test_timerInit: the fire date reads back as given; a one-shot's interval is 0; both are valid")
    func timerInit() {
        let start = Date()
        let oneShot = Timer(fire: start, interval: 0.3, repeats: false) { _ in }
        #expect(oneShot.fireDate == start)
        #expect(oneShot.timeInterval == 0)
        #expect(oneShot.isValid)
        let repeating = Timer(fire: start, interval: 0.3, repeats: true) { _ in }
        #expect(repeating.fireDate == start)
        #expect(repeating.timeInterval == 0.3)
        #expect(repeating.isValid)
    }

    @Test("test_timerTickOnce: a scheduled 10 ms one-shot fires once within a 50 ms run")
    func timerTickOnce() {
        var fired = 0
        let timer = Timer.scheduledTimer(withTimeInterval: 0.01, repeats: false) { timer in
            fired += 1
            timer.invalidate()
        }
        let runLoop = RunLoop.current
        runLoop.add(timer, forMode: .default)  // already scheduled: adding again changes nothing
        runLoop.run(until: Date(timeIntervalSinceNow: 0.05))
        #expect(fired == 1)
    }

    @Test("test_timerRepeats: a 100 ms timer fires three times about 100 ms apart (±0.2 s), then invalidates itself")
    func timerRepeats() {
        let interval: TimeInterval = 0.1
        var count = 0
        var previous = Date()
        var gaps: [TimeInterval] = []
        let timer = Timer.scheduledTimer(withTimeInterval: interval, repeats: true) { timer in
            #expect(timer.timeInterval == interval)
            let now = Date()
            gaps.append(now.timeIntervalSince(previous))
            previous = now
            count += 1
            if count == 3 { timer.invalidate() }
        }
        RunLoop.current.add(timer, forMode: .default)
        RunLoop.current.run(until: Date(timeIntervalSinceNow: interval * 4))
        #expect(count == 3)
        for gap in gaps { #expect(abs(gap - interval) <= 0.2) }
    }

    @Test("test_timerInvalidate: a repeating timer that invalidates itself in its block fires once")
    func timerInvalidate() {
        var fired = 0
        let timer = Timer.scheduledTimer(withTimeInterval: 0.01, repeats: true) { timer in
            #expect(timer.isValid)
            fired += 1
            timer.invalidate()
            #expect(!timer.isValid)
        }
        RunLoop.current.add(timer, forMode: .default)
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
        #expect(fired == 1)
    }
}
