import Dispatch
import Glibc
import TestSupport
import Testing

@testable import RunLoopKit

@Suite("Wake-up policy: decisions.md 5 by default, CF exactly with strictCF (C-B1, C-B2, C-R6, C-T7)")
struct WakeUpPolicyTests {
    /// A block queued by a block, with the next timer at 1 s: when does the inner block run?
    private func innerBlockTime(policy: RunLoop.WakeUpPolicy) -> [Int64] {
        let (loop, _) = makeVirtualLoop()
        loop.wakeUpPolicy = policy
        let recorder = Recorder(loop)
        loop.perform {
            recorder.record("outer")
            loop.perform { recorder.record("inner") }
        }
        addRecordingTimer("timer", to: loop, recorder: recorder, firstAt: 1_000)
        loop.run(until: ms(2_000))
        return recorder.times(of: "inner") + recorder.times(of: "timer")
    }

    /// Whether a perform from another thread left a wake-up for work (a pass) pending on the loop.
    private func crossThreadPerformWakes(policy: RunLoop.WakeUpPolicy) -> Bool {
        let (loop, _) = makeVirtualLoop()
        loop.wakeUpPolicy = policy
        loop.shared.drainWakeUps()
        let handle = loop.handle
        let posted = DispatchSemaphore(value: 0)
        spawnThread {
            handle.perform {}
            posted.signal()
        }
        _ = waitBounded(posted)
        return loop.shared.drainWakeUps()
    }

    /// Whether moving a timer's fire date from another thread left a wake-up for work (a pass) pending.
    private func crossThreadFireDateWakes(policy: RunLoop.WakeUpPolicy) -> Bool {
        let (loop, _) = makeVirtualLoop()
        loop.wakeUpPolicy = policy
        let timer = Timer(fireAt: ms(1_000), interval: .zero, repeats: false) { _ in }
        loop.add(timer, forMode: .default)
        let handle = timer.handle
        loop.shared.drainWakeUps()
        let posted = DispatchSemaphore(value: 0)
        spawnThread {
            handle.setFireDate(.zero)
            posted.signal()
        }
        _ = waitBounded(posted)
        return loop.shared.drainWakeUps()
    }

    @Test("decisions.md 5 (default): a block queued by a block runs in the next pass, without sleeping")
    func defaultRunsBlockQueuedByBlockAtOnce() {
        #expect(innerBlockTime(policy: .handedOverWorkWakes) == [0, 1_000])
    }

    @Test("C-B2 (strictCF): a block queued by a block waits until something else wakes the loop")
    func strictLetsBlockQueuedByBlockWait() {
        #expect(innerBlockTime(policy: .strictCF) == [1_000, 1_000])
    }

    @Test("decisions.md 5 (default): a cross-thread perform and fire-date change wake the loop")
    func defaultWakesForHandedOverWork() {
        #expect(crossThreadPerformWakes(policy: .handedOverWorkWakes))
        #expect(crossThreadFireDateWakes(policy: .handedOverWorkWakes))
    }

    @Test("C-B1/C-R6/C-T7 (strictCF): a cross-thread perform and fire-date change do not wake the loop for a pass")
    func strictDoesNotWakeForHandedOverWork() {
        #expect(!crossThreadPerformWakes(policy: .strictCF))
        #expect(!crossThreadFireDateWakes(policy: .strictCF))
    }

    @Test("C-R5 (strictCF): a stop from another thread still wakes the loop")
    func strictStopStillWakes() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            loop.wakeUpPolicy = .strictCF
            let handle = loop.handle
            let entry = RunLoop.Observer(activities: .entry, repeats: false) { _, _ in
                spawnThread { handle.stop() }
            }
            loop.add(entry, forMode: .default)
            loop.add(RunLoop.Source {}, forMode: .default)
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped)
        }
    }

    @Test("C-R6 (strictCF): work handed over runs once an explicit wakeUp wakes the loop")
    func strictWorkRunsAfterExplicitWakeUp() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            loop.wakeUpPolicy = .strictCF
            let handle = loop.handle
            let entry = RunLoop.Observer(activities: .entry, repeats: false) { _, _ in
                spawnThread {
                    handle.perform { handle.stop() }
                    handle.wakeUp()
                }
            }
            loop.add(entry, forMode: .default)
            loop.add(RunLoop.Source {}, forMode: .default)
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped)
        }
    }
}
