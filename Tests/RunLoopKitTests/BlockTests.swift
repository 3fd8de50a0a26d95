import Dispatch
import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Perform blocks (runloop-reference 1.3, decisions.md 5)")
struct BlockTests {
    @Test("C-B1/C-B4: perform defaults to the default mode and runs blocks in FIFO order")
    func performRunsInOrderInDefaultMode() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        for index in 1...3 { loop.perform { recorder.record("b\(index)") } }
        loop.perform(inModes: [.tracking]) { recorder.record("tracking") }
        loop.run(until: .zero)
        #expect(recorder.events == ["b1", "b2", "b3"])
        loop.run(mode: .tracking, until: .zero)
        #expect(recorder.events == ["b1", "b2", "b3", "tracking"])
    }

    @Test("C-B2: a block queued by a block runs in a later DoBlocks call; kept blocks keep their place")
    func blockQueuedByBlockRunsLater() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        loop.perform(inModes: [.tracking]) { recorder.record("tracking-1") }
        loop.perform {
            recorder.record("outer")
            loop.perform { recorder.record("inner") }
            loop.perform(inModes: [.tracking]) { recorder.record("tracking-2") }
        }
        let passes = RunLoop.Observer(activities: .beforeTimers) { _, _ in recorder.record("pass") }
        loop.add(passes, forMode: .default)
        addRecordingTimer("timer", to: loop, recorder: recorder, firstAt: 0)
        loop.run(until: .zero)
        // C-B3: the first DoBlocks runs "outer"; "inner" waits for the DoBlocks after the timers.
        #expect(recorder.events == ["pass", "outer", "timer", "inner"])
        loop.run(mode: .tracking, until: .zero)
        #expect(recorder.events.suffix(2) == ["tracking-1", "tracking-2"])
    }

    @Test("C-B2: blocks for common run in any common mode")
    func commonBlocksRunInCommonModes() {
        let (loop, _) = makeVirtualLoop()
        loop.addCommonMode(.tracking)
        let recorder = Recorder(loop)
        loop.perform(inModes: [.common]) { recorder.record("common") }
        loop.perform(inModes: ["custom"]) { recorder.record("custom") }
        loop.run(mode: .tracking, until: .zero)
        #expect(recorder.events == ["common"])
    }

    @Test("C-B3: blocks also run after the wake-up, after timers")
    func blocksRunAfterTimers() {
        let (loop, _) = makeVirtualLoop()
        let recorder = Recorder(loop)
        let timer = Timer(fireAt: ms(100), interval: .zero, repeats: false) { _ in
            recorder.record("timer")
            loop.perform { recorder.record("block") }
        }
        loop.add(timer, forMode: .default)
        loop.run(until: ms(150))
        #expect(recorder.events == ["timer", "block"])
        #expect(recorder.times(of: "block") == [100])
    }

    @Test("decision 5: a perform from another thread wakes a sleeping loop at once")
    func crossThreadPerformWakesLoop() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            let ran = Mutex(false)
            loop.add(RunLoop.Source {}, forMode: .default)
            let handle = loop.handle
            let limit = TimeSource.system.now() + .seconds(30)
            spawnThread {
                handle.perform {
                    ran.withLock { $0 = true }
                    handle.stop()
                }
            }
            #expect(loop.run(until: limit) == .stopped)
            #expect(ran.withLock { $0 })
            #expect(TimeSource.system.now() < limit, "woke without waiting for the limit")
        }
    }
}
