import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Dispatch timers on the virtual clock (seeds G1–G5, runloop-reference 1.5)")
struct VirtualDispatchTimerTests {
    /// A dispatch timer on a virtual loop that records (virtual ms, ticks) per event.
    private func makeTimer(clock kind: ClockKind = .uptime, work: Duration = .zero)
        -> (RunLoop, VirtualClock, DispatchTimer, () -> [(Int64, Int)])
    {
        let (loop, clock) = makeVirtualLoop()
        var events: [(Int64, Int)] = []
        var first = true
        let timer = DispatchTimer(clock: kind, runLoop: loop) { event in
            events.append((loop.now.milliseconds, event.ticks))
            if first { clock.busy(work) }
            first = false
        }
        return (loop, clock, timer, { events })
    }

    @Test("G2/C-G2: a start of now fires at once, then every interval")
    func startNowFiresAtOnce() {
        let (loop, _, timer, events) = makeTimer()
        timer.schedule(deadline: .now, repeating: .milliseconds(100))
        timer.resume()
        loop.run(until: ms(350))
        #expect(events().map(\.0) == [0, 100, 200, 300])
    }

    @Test("G4/C-G6: a new timer is suspended until resumed")
    func newTimerIsSuspended() {
        let (loop, _, timer, events) = makeTimer()
        timer.schedule(deadline: .now, repeating: .milliseconds(100))
        loop.run(until: ms(250))
        #expect(events().isEmpty)
        // The run found nothing scheduled and returned at once: resumed, the timer starts at 0.
        timer.resume()
        loop.run(until: ms(350))
        #expect(events().map(\.0) == [0, 100, 200, 300])
    }

    @Test("C-G4/T3: a handler overrunning its interval gets one event with the coalesced ticks (100, 450×3, 500, 600)")
    func overrunCoalescesTicks() {
        let (loop, _, timer, events) = makeTimer(work: .milliseconds(350))
        timer.schedule(deadline: .after(.milliseconds(100)), repeating: .milliseconds(100))
        timer.resume()
        loop.run(until: ms(650))
        #expect(events().map(\.0) == [100, 450, 500, 600])
        #expect(events().map(\.1) == [1, 3, 1, 1])
    }

    @Test("C-G5: ticks while suspended arrive as one event right after resume")
    func suspendedTicksArriveAfterResume() {
        let (loop, _, timer, events) = makeTimer()
        timer.schedule(deadline: .after(.milliseconds(100)), repeating: .milliseconds(100))
        timer.resume()
        let suspend = Timer(fireAt: ms(150), interval: .zero, repeats: false) { _ in timer.suspend() }
        let resume = Timer(fireAt: ms(1_150), interval: .zero, repeats: false) { _ in timer.resume() }
        loop.add(suspend, forMode: .default)
        loop.add(resume, forMode: .default)
        loop.run(until: ms(1_250))
        #expect(events().map(\.0) == [100, 1_150, 1_200])
        #expect(events().map(\.1) == [1, 10, 1])
    }

    @Test("C-G6: suspensions nest; extra resumes do nothing (decision 10)")
    func suspensionsNest() {
        let (loop, _, timer, events) = makeTimer()
        timer.schedule(deadline: .now, repeating: .milliseconds(100))
        timer.resume()
        timer.resume()
        timer.suspend()
        timer.suspend()
        timer.resume()
        loop.run(until: ms(250))
        #expect(events().isEmpty, "still suspended once")
        timer.resume()
        loop.run(until: ms(260))
        #expect(events().map(\.1) == [3])
    }

    @Test("C-G3: a new schedule replaces the old one, from inside the handler too, and drops pending ticks")
    func rescheduleFromHandler() {
        let (loop, _) = makeVirtualLoop()
        var times: [Int64] = []
        var timer: DispatchTimer?
        timer = DispatchTimer(runLoop: loop) { _ in
            times.append(loop.now.milliseconds)
            if times.count == 2 { timer?.schedule(deadline: .after(.milliseconds(500)), repeating: .seconds(1)) }
        }
        timer?.schedule(deadline: .now, repeating: .milliseconds(100))
        timer?.resume()
        loop.run(until: ms(2_000))
        #expect(times == [0, 100, 600, 1_600])
        timer?.cancel()
    }

    @Test("One-shot: repeating nil fires once")
    func oneShot() {
        let (loop, _, timer, events) = makeTimer()
        timer.schedule(deadline: .after(.milliseconds(40)))
        timer.resume()
        loop.run(until: ms(500))
        #expect(events().map(\.0) == [40])
    }

    @Test("C-G7: cancel stops events; the cancel handler runs once, after a suspension is lifted")
    func cancelHandlerRunsOnceAfterResume() {
        let (loop, _, timer, events) = makeTimer()
        let cancelled = Mutex(0)
        timer.schedule(deadline: .now, repeating: .milliseconds(100))
        timer.resume()
        loop.run(until: ms(150))
        timer.suspend()
        timer.cancel { cancelled.withLock { $0 += 1 } }
        timer.cancel { cancelled.withLock { $0 += 100 } }
        let keepAlive = Timer(fireAt: ms(400), interval: .zero, repeats: false) { _ in }
        loop.add(keepAlive, forMode: .default)
        loop.run(until: ms(300))
        #expect(cancelled.withLock { $0 } == 0, "suspended: not yet")
        timer.resume()
        loop.run(until: ms(500))
        #expect(cancelled.withLock { $0 } == 1)
        #expect(events().map(\.0) == [0, 100])
    }

    @Test("C-M12/C-G10: a loop-delivered dispatch timer waits in a mode that is not common, then catches up coalesced")
    func pausedByNonCommonMode() {
        let (loop, _, timer, events) = makeTimer()
        timer.schedule(deadline: .after(.milliseconds(100)), repeating: .milliseconds(100))
        timer.resume()
        let gesture = Timer(fireAt: ms(50), interval: .zero, repeats: false) { _ in
            loop.add(Timer(fireAt: ms(1_000), interval: .zero, repeats: false) { _ in }, forMode: "custom")
            loop.run(mode: "custom", until: ms(450))
        }
        loop.add(gesture, forMode: .default)
        loop.run(until: ms(500))
        #expect(events().map(\.0) == [450, 500])
        #expect(events().map(\.1) == [4, 1], "C-G4: the ticks at 100…400 come as one event")
    }

    @Test("G1/C-G10: a loop-delivered dispatch timer keeps firing in a mode once it is common")
    func notPausedByCommonMode() {
        let (loop, _, timer, events) = makeTimer()
        loop.addCommonMode(.tracking)
        timer.schedule(deadline: .after(.milliseconds(100)), repeating: .milliseconds(100))
        timer.resume()
        let gesture = Timer(fireAt: ms(50), interval: .zero, repeats: false) { _ in
            loop.run(mode: .tracking, until: ms(450))
        }
        loop.add(gesture, forMode: .default)
        loop.run(until: ms(500))
        #expect(events().map(\.0) == [100, 200, 300, 400, 500])
    }

    @Test("G3/decisions 9: after a machine sleep a continuous or wall deadline has passed, an uptime one has not")
    func clocksThroughSleep() {
        for (kind, expected) in [(ClockKind.continuous, [Int64(0)]), (.wall, [0]), (.uptime, [])] {
            let (loop, clock, timer, events) = makeTimer(clock: kind)
            timer.schedule(deadline: .after(.seconds(60)))
            timer.resume()
            clock.sleepMachine(for: .seconds(61))
            loop.run(until: ms(10))
            #expect(events().map(\.0) == expected, "\(kind)")
        }
    }
}

@Suite("Dispatch timers on libdispatch (bounded waits, no timing assertions)")
struct RealDispatchTimerTests {
    @Test("G2/C-G4: a queue timer fires, repeatedly, with at least one tick per event; handlers never overlap")
    func queueTimerFires() {
        let state = Mutex((events: 0, ticks: 0, running: false, overlapped: false))
        let done = DispatchSemaphore(value: 0)
        let timer = DispatchTimer(queue: DispatchQueue(label: "test")) { event in
            let count = state.withLock { state -> Int in
                if state.running { state.overlapped = true }
                state.running = true
                state.events += 1
                state.ticks += event.ticks
                return state.events
            }
            state.withLock { $0.running = false }
            if count == 3 { done.signal() }
        }
        timer.schedule(deadline: .now, repeating: .milliseconds(5))
        timer.resume()
        #expect(waitBounded(done))
        timer.cancel()
        let final = state.withLock { $0 }
        #expect(final.ticks >= final.events && !final.overlapped)
    }

    @Test("C-G7: the cancel handler of a real timer runs once")
    func realCancelHandler() {
        let done = DispatchSemaphore(value: 0)
        let timer = DispatchTimer(queue: DispatchQueue(label: "test")) { _ in }
        timer.schedule(deadline: .after(.seconds(3_600)))
        timer.resume()
        timer.cancel { done.signal() }
        #expect(waitBounded(done))
    }

    @Test("G1: a run-loop-delivered real timer runs its handler on the loop's thread")
    func runLoopDelivery() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            var ticks = 0
            let timer = DispatchTimer(runLoop: loop) { event in
                ticks += event.ticks
                if ticks >= 2 { loop.stop() }
            }
            loop.add(RunLoop.Source {}, forMode: .default)
            timer.schedule(deadline: .now, repeating: .milliseconds(5))
            timer.resume()
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped)
            #expect(ticks >= 2)
            timer.cancel()
        }
    }
}
