import Dispatch
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Threads and real waits (seeds T4, T5; runloop-reference C-R6, C-R7, C-T8, C-T10)")
struct ThreadTests {
    @Test("T5: a timer on a loop that is not running never fires, however far time moves")
    func timerOnIdleLoopNeverFires() {
        let (loop, clock) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let timer = addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 100, every: 100)
        clock.busy(.seconds(3_600))
        #expect(recorder.events.isEmpty)
        #expect(timer.isValid)
        loop.run(until: loop.now)
        #expect(recorder.events.count == 1, "T3: once running, it fires once, late, not 36 000 times")
    }

    @Test("T4/C-T8: invalidate through the handle from another thread wakes the owner and removes the timer")
    func invalidateFromAnotherThread() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            let fired = Mutex(0)
            let timer = Timer(fireAt: TimeSource.system.now() + .seconds(3_600), interval: .zero, repeats: false) { _ in
                fired.withLock { $0 += 1 }
            }
            loop.add(timer, forMode: .default)
            let handle = timer.handle
            spawnThread { handle.invalidate() }
            let result = loop.run(until: TimeSource.system.now() + .seconds(30))
            #expect(result == .finished, "the only timer is gone, so the mode is empty")
            #expect(!timer.isValid && !handle.isValid)
            #expect(fired.withLock { $0 } == 0)
        }
    }

    @Test("T4/C-T7: moving the fire date from another thread wakes the owner and fires")
    func fireDateFromAnotherThread() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            var fired = false
            let timer = Timer(fireAt: TimeSource.system.now() + .seconds(3_600), interval: .zero, repeats: false) { _ in
                fired = true
            }
            loop.add(timer, forMode: .default)
            let handle = timer.handle
            spawnThread { handle.setFireDate(.zero) }
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .finished)
            #expect(fired)
        }
    }

    @Test("T4: a handle request before the timer is scheduled is applied when it joins a loop")
    func handleRequestBeforeScheduling() {
        let (loop, _) = makeVirtualLoop()
        let timer = Timer(fireAt: ms(10), interval: .zero, repeats: false) { _ in }
        timer.handle.invalidate()
        #expect(!timer.isValid)
        loop.add(timer, forMode: .default)
        #expect(!loop.contains(timer, inMode: .default))
    }

    @Test("C-R7/C-T10: a real run loop sleeps in the kernel and wakes for its timer")
    func realLoopWakesForTimer() {
        let loop = RunLoop()
        let start = TimeSource.system.now()
        var firedAt: Instant?
        let timer = Timer(fireAt: start + .milliseconds(20), interval: .zero, repeats: false) { _ in
            firedAt = TimeSource.system.now()
        }
        loop.add(timer, forMode: .default)
        #expect(loop.run(until: start + .seconds(30)) == .finished)
        #expect(firedAt.map { $0 >= start + .milliseconds(20) } == true, "fired, and never early")
    }

    @Test("C-R2: a readable descriptor wakes a real loop and counts as a handled source")
    func descriptorWakesLoop() {
        let loop = RunLoop()
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer {
            close(pipeEnds[0])
            close(pipeEnds[1])
        }
        var received: [UInt8] = []
        let source = RunLoop.FileDescriptorSource(fileDescriptor: pipeEnds[0]) {
            var byte: UInt8 = 0
            if read(pipeEnds[0], &byte, 1) == 1 { received.append(byte) }
        }
        loop.add(source, forMode: .default)
        let writer = pipeEnds[1]
        spawnThread {
            var byte: UInt8 = 42
            _ = write(writer, &byte, 1)
        }
        let result = loop.run(until: TimeSource.system.now() + .seconds(30), returnAfterSourceHandled: true)
        #expect(result == .handledSource)
        #expect(received == [42])
        source.invalidate()
        #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .finished)
    }

    @Test("C-M10: a descriptor source of another mode does not wake the running mode")
    func descriptorOfOtherModeIsIgnored() {
        let (loop, _) = makeVirtualLoop()
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer {
            close(pipeEnds[0])
            close(pipeEnds[1])
        }
        var calls = 0
        loop.add(RunLoop.FileDescriptorSource(fileDescriptor: pipeEnds[0]) { calls += 1 }, forMode: .tracking)
        var byte: UInt8 = 1
        _ = write(pipeEnds[1], &byte, 1)
        let recorder = Recorder(loop)
        addRecordingTimer("t", to: loop, recorder: recorder, firstAt: 100)
        #expect(loop.run(mode: .default, until: ms(500)) == .finished)
        #expect(calls == 0)
        #expect(loop.run(mode: .tracking, until: .zero, returnAfterSourceHandled: true) == .handledSource)
        #expect(calls == 1)
    }

    @Test("Virtual clock: outstanding external work makes the loop wait for real instead of jumping time")
    func externalWorkHoldsVirtualTime() async {
        await runOnDedicatedThread {
            let (loop, clock) = makeVirtualLoop()
            let resultTime = Mutex<Instant?>(nil)
            var deadlineSawResult = false
            let deadline = Timer(fireAt: ms(1_000), interval: .zero, repeats: false) { _ in
                deadlineSawResult = resultTime.withLock { $0 } != nil
            }
            loop.add(deadline, forMode: .default)
            let work = loop.handle.beginExternalWork()
            let handle = loop.handle
            spawnThread {
                handle.perform { resultTime.withLock { $0 = clock.now() } }
                work.finish()
            }
            loop.run(until: ms(2_000))
            #expect(deadlineSawResult)
            #expect(resultTime.withLock { $0 } == .zero, "time did not move while the work was out")
        }
    }

    @Test("Virtual clock: outside work takes no virtual time, so a run's passes, sleeps and results repeat exactly")
    func externalWorkLeavesNoTrace() async {
        /// The loop's activities and the results' times, when each timer fire starts work on another
        /// thread that posts a result and finishes `after` µs (real time) later. With `postedInCallout`
        /// the result is posted before the callout returns (quick work), otherwise while the loop goes on.
        @Sendable func activities(postedInCallout: Bool, after: UInt32) -> [String] {
            let (loop, clock) = makeVirtualLoop()
            var seen: [String] = []
            let observer = RunLoop.Observer(activities: [.beforeWaiting, .afterWaiting]) { [unowned loop] _, activity in
                seen.append(activity == .beforeWaiting ? "sleep" : "woke(\(String(describing: loop.lastWakeReason)))")
            }
            loop.add(observer, forMode: .default)
            let handle = loop.handle
            let results = Mutex<[Int64]>([])
            let timer = Timer(fireAt: ms(100), interval: .milliseconds(100), repeats: true) { _ in
                seen.append("fire")
                let work = handle.beginExternalWork()
                let posted = Atomic<Bool>(false)
                spawnThread {
                    handle.perform { results.withLock { $0.append(clock.now().milliseconds) } }
                    posted.store(true, ordering: .releasing)
                    usleep(after)
                    work.finish()
                }
                while postedInCallout && !posted.load(ordering: .acquiring) { sched_yield() }
            }
            loop.add(timer, forMode: .default)
            loop.run(until: ms(450))
            timer.invalidate()
            return seen + results.withLock { $0.map { "result at \($0) ms" } }
        }
        await runOnDedicatedThread {
            let first = activities(postedInCallout: true, after: 0)
            #expect(first.filter { $0.hasPrefix("result") } == (1...4).map { "result at \($0 * 100) ms" })
            for (postedInCallout, after): (Bool, UInt32) in [(false, 0), (true, 2_000), (false, 2_000)] {
                #expect(
                    activities(postedInCallout: postedInCallout, after: after) == first,
                    "posted in the callout: \(postedInCallout), finished \(after) µs later")
            }
        }
    }
}
