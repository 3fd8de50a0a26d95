import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Run results, stop and wake-up (runloop-reference 1.2)")
struct RunResultTests {
    @Test("C-R2/C-R4: timers firing never end a run as a handled source")
    func timersAreNotHandledSources() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 100, every: 100)
        #expect(loop.run(until: ms(350), returnAfterSourceHandled: true) == .timedOut)
        #expect(recorder.times(of: "t") == [100, 200, 300])
        #expect(loop.now == ms(350))
    }

    @Test("C-R2: a signalled source ends a run with handledSource when asked")
    func signalledSourceEndsRunWhenAsked() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let source = RunLoop.Source { recorder.record("source") }
        loop.add(source, forMode: .default)
        source.signal()
        #expect(loop.run(until: ms(1_000), returnAfterSourceHandled: true) == .handledSource)
        #expect(recorder.times(of: "source") == [0])
    }

    @Test("C-R2: handledSource outranks timedOut; without the flag a handled source does not end the run")
    func handledSourcePriority() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let source = RunLoop.Source { recorder.record("source") }
        loop.add(source, forMode: .default)
        source.signal()
        #expect(loop.run(until: .zero, returnAfterSourceHandled: true) == .handledSource)
        source.signal()
        addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 100)
        #expect(loop.run(until: ms(300)) == .timedOut)
        #expect(recorder.events == ["source", "source", "t"])
    }

    @Test("C-R3: a limit at or before now polls once: due timers fire, no sleep, no waiting observers")
    func pollRunsOnePass() {
        let (loop, clock) = makeVirtualLoop()
        let recorder = Recorder(loop)
        addRecordingTimer("due", to: loop, recorder: recorder, firstAt: 0)
        addRecordingTimer("later", to: loop, recorder: recorder, firstAt: 100)
        let observer = RunLoop.Observer(activities: .allActivities) { _, activity in recorder.record("\(activity)") }
        loop.add(observer, forMode: .default)
        clock.busy(.milliseconds(5))
        #expect(loop.run(until: loop.now) == .timedOut)
        #expect(recorder.events == ["entry", "beforeTimers", "beforeSources", "due", "exit"])
        #expect(loop.now == ms(5))
    }

    @Test("C-R5: stop ends the innermost run only; a stop while not running is forgotten")
    func stopEndsInnermostRun() {
        let (loop, _) = makeVirtualLoop()
        loop.stop()
        let recorder = Recorder(loop)
        let outer = Timer(fireAt: ms(100), interval: .zero, repeats: false) { _ in
            let inner = Timer(fireAt: ms(150), interval: .zero, repeats: false) { _ in loop.stop() }
            loop.add(inner, forMode: "inner")
            addRecordingTimer("inner-keepalive", to: loop, recorder: recorder, firstAt: 900, modes: ["inner"])
            recorder.record("inner:\(loop.run(mode: "inner", until: ms(1_000)))")
        }
        loop.add(outer, forMode: .default)
        addRecordingTimer("outer-later", to: loop, recorder: recorder, firstAt: 300)
        let result = loop.run(until: ms(400))
        #expect(recorder.events == ["inner:stopped", "outer-later"])
        #expect(recorder.times(of: "inner:stopped") == [150])
        #expect(result == .finished)
    }

    @Test("C-R5: stop from another thread ends the run")
    func stopFromAnotherThread() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            let keepAlive = RunLoop.Source {}
            loop.add(keepAlive, forMode: .default)
            let handle = loop.handle
            // A stop that arrives before the run starts is forgotten (C-R5), so the other thread is
            // started only once the run has begun: from the Entry observer.
            let entry = RunLoop.Observer(activities: .entry, repeats: false) { _, _ in
                spawnThread { handle.stop() }
            }
            loop.add(entry, forMode: .default)
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped)
        }
    }

    @Test("C-R6: wakeUp from another thread ends a sleep, and the loop goes back to sleep until its limit")
    func wakeUpEndsSleep() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            var passes = 0
            let observer = RunLoop.Observer(activities: .afterWaiting) { _, _ in
                passes += 1
                if passes == 1 { loop.stop() }
            }
            loop.add(observer, forMode: .default)
            loop.add(RunLoop.Source {}, forMode: .default)
            let handle = loop.handle
            spawnThread { handle.wakeUp() }
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped)
            #expect(passes == 1)
        }
    }

    @Test("C-R10: result raw values match CFRunLoop.h")
    func resultRawValues() {
        #expect(RunLoop.RunResult.finished.rawValue == 1)
        #expect(RunLoop.RunResult.stopped.rawValue == 2)
        #expect(RunLoop.RunResult.timedOut.rawValue == 3)
        #expect(RunLoop.RunResult.handledSource.rawValue == 4)
    }

    @Test("C-R11: signalled sources run by order, then signal time; only the first with returnAfterSourceHandled")
    func sourcesRunByOrderThenSignalTime() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let late = RunLoop.Source(order: 5) { recorder.record("order5") }
        let firstSignalled = RunLoop.Source(order: 1) { recorder.record("order1-first") }
        let secondSignalled = RunLoop.Source(order: 1) { recorder.record("order1-second") }
        for source in [late, secondSignalled, firstSignalled] { loop.add(source, forMode: .default) }
        late.signal()
        firstSignalled.signal()
        secondSignalled.signal()
        #expect(loop.run(until: .zero, returnAfterSourceHandled: true) == .handledSource)
        #expect(recorder.events == ["order1-first"])
        #expect(loop.run(until: .zero) == .timedOut)
        #expect(recorder.events == ["order1-first", "order1-second", "order5"])
    }

    @Test("C-R12: nextFireDate is the earliest timer of the mode; limitDate polls first")
    func nextFireDateAndLimitDate() {
        let (loop, _) = makeVirtualLoop()
        #expect(loop.limitDate(forMode: .default) == nil)
        let recorder = Recorder(loop)
        addRecordingTimer("now", to: loop, recorder: recorder, firstAt: 0)
        addRecordingTimer("b", to: loop, recorder: recorder, firstAt: 300)
        addRecordingTimer("a", to: loop, recorder: recorder, firstAt: 200)
        #expect(loop.nextFireDate(forMode: .default) == ms(0))
        #expect(loop.limitDate(forMode: .default) == ms(200))
        #expect(recorder.events == ["now"])
        let source = RunLoop.Source {}
        loop.add(source, forMode: "sources-only")
        #expect(loop.limitDate(forMode: "sources-only") == .distantFuture)
    }

    @Test("C-R13: run(mode:before:) is false for an empty mode and true after running")
    func runBeforeReportsWhetherItRan() {
        let (loop, _) = makeVirtualLoop()
        #expect(!loop.run(mode: .default, before: ms(100)))
        let recorder = Recorder(loop)
        addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 50)
        #expect(loop.run(mode: .default, before: ms(100)))
        #expect(recorder.events == ["t"])
    }

    @Test("C-R13: current is one loop per thread, identical on repeated access")
    func currentIsPerThreadAndStable() async {
        await runOnDedicatedThread {
            let mine = RunLoop.current
            #expect(mine === RunLoop.current)
            let other = Mutex<ObjectIdentifier?>(nil)
            let done = DispatchSemaphore(value: 0)
            spawnThread {
                other.withLock { $0 = ObjectIdentifier(RunLoop.current) }
                done.signal()
            }
            #expect(waitBounded(done))
            #expect(other.withLock { $0 } != ObjectIdentifier(mine))
        }
    }

    @Test("C-R13: run() repeats the default mode until it is stopped or empty")
    func runRepeatsUntilEmpty() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        var count = 0
        let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { timer in
            count += 1
            recorder.record("t")
            if count == 4 { timer.invalidate() }
        }
        loop.add(timer, forMode: .default)
        loop.run()
        #expect(recorder.times(of: "t") == [100, 200, 300, 400])
    }
}
