import Dispatch
import Glibc
import TestSupport
import Testing

@testable import RunLoopKit

/// Rule C-X1: a run loop's executor runs jobs on the loop's thread, in its executor modes, in order,
/// never inside another job; an actor bound to it runs between timer callouts.
@Suite("The loop as an executor (C-X1)")
struct ExecutorTests {
    @Test("An actor bound to a loop runs on the loop's thread, between timer callouts, in order")
    func actorRunsOnTheLoop() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let counter = LoopCounter(handle: loop.handle, log: log)
        addTranscriptTimer("timer", to: loop, log: log, at: 5)
        Task(executorPreference: loop.taskExecutor) {
            await counter.increment()
            await counter.increment()
        }
        #expect(loop.run(mode: .default, until: ms(10)) == .finished)
        #expect(log.entries == ["count 1 on loop", "count 2 on loop", "timer at 5"])
    }

    @Test("C-X1: jobs run in common modes, wait while a mode that is not common runs, and run when back")
    func jobsFollowTheExecutorModes() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        loop.addCommonMode(.tracking)
        let modal = RunLoop.Mode("modal")
        Task(executorPreference: loop.taskExecutor) { log.append("job") }
        addTranscriptTimer("modal ends", to: loop, log: log, at: 10, mode: modal)
        loop.run(mode: modal, until: ms(20))
        #expect(log.entries == ["modal ends at 10"])
        loop.run(mode: .tracking, until: ms(30))
        #expect(log.entries == ["modal ends at 10", "job"])
    }

    @Test("C-X1: executorModes chooses the modes: a job for the default mode waits while the loop tracks")
    func executorModesIsASetting() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        loop.addCommonMode(.tracking)
        loop.executorModes = [.default]
        Task(executorPreference: loop.taskExecutor) { log.append("job") }
        addTranscriptTimer("tracking ends", to: loop, log: log, at: 10, mode: .tracking)
        loop.run(mode: .tracking, until: ms(20))
        #expect(log.entries == ["tracking ends at 10"])
        loop.run(mode: .default, until: ms(30))
        #expect(log.entries == ["tracking ends at 10", "job"])
    }

    @Test("C-X1: a run nested inside a job runs no job; the waiting job runs after the outer one")
    func jobsNeverRunInsideAJob() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let handle = loop.handle
        Task(executorPreference: loop.taskExecutor) {
            await handle.submit { loop in
                Task(executorPreference: loop.taskExecutor) { log.append("second job") }
                addTranscriptTimer("nested timer", to: loop, log: log, at: 5)
                loop.run(mode: .default, until: ms(10))
                log.append("first job ends")
            }
        }
        loop.run(mode: .default, until: ms(20))
        #expect(log.entries == ["nested timer at 5", "first job ends", "second job"])
    }

    @Test("C-X1: the job limit counts jobs: a burst of task starts runs over passes, in order, due timers between")
    func jobLimitCountsEachJob() {
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let count = RunLoop.jobBatchLimit + 6
        for index in 0..<count { Task(executorPreference: loop.taskExecutor) { log.append("\(index)") } }
        loop.run(mode: .default, until: .zero)  // one pass (C-R3)
        #expect(loop.executorJobsRun == RunLoop.jobBatchLimit)
        addTranscriptTimer("timer", to: loop, log: log, at: 0)
        Task(executorPreference: loop.taskExecutor) { log.append("later") }
        loop.run(mode: .default, until: .zero)
        #expect(loop.executorJobsRun == count + 1)
        // The timer due meanwhile fires before the rest of the burst, which runs before later jobs.
        #expect(log.entries.count == count + 2)
        #expect(log.entries.prefix(3) == ["0", "1", "2"])
        #expect(log.entries.dropFirst(RunLoop.jobBatchLimit - 1).prefix(3) == ["1023", "timer at 0", "1024"])
        #expect(log.entries.suffix(2) == ["\(count - 1)", "later"])
    }

    @Test("submit returns the closure's result, needs no try when the closure cannot throw, rethrows its error typed")
    func submitReturnsAndRethrows() {
        struct Refused: Error {}
        let (loop, _) = makeVirtualLoop()
        let log = Transcript()
        let handle = loop.handle
        Task(executorPreference: loop.taskExecutor) {
            let mode = await handle.submit { loop in loop.currentMode }
            log.append("mode \(mode.map { "\($0)" } ?? "none")")
            do throws(Refused) {
                _ = try await handle.submit { _ throws(Refused) in throw Refused() }
            } catch {
                log.append("refused \(error)")  // a Refused: the closure's error type
            }
        }
        loop.run(mode: .default, until: ms(10))
        #expect(log.entries == ["mode default", "refused Refused()"])
    }

    @Test("C-X1: jobs from another thread wake the loop with one eventfd write a batch; on its thread, none")
    func enqueueWakesOnce() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            for _ in 0..<3 { Task(executorPreference: loop.taskExecutor) {} }
            #expect(pendingWakeUps(of: loop) == 0)
            #expect(loop.run(mode: .default, until: .zero) == .timedOut)
            #expect(loop.executorJobsRun == 3)
            let done = DispatchSemaphore(value: 0)
            let taskExecutor = loop.taskExecutor
            spawnThread {
                for _ in 0..<3 { Task(executorPreference: taskExecutor) {} }
                done.signal()
            }
            #expect(waitBounded(done))
            #expect(pendingWakeUps(of: loop) == 1)
            #expect(loop.run(mode: .default, until: .zero) == .timedOut)
            #expect(loop.executorJobsRun == 6)
        }
    }

    @Test("A job from another thread wakes a sleeping loop and runs on its thread")
    func jobHopsToTheLoopThread() async {
        await runOnDedicatedThread {
            let loop = RunLoop()
            let handle = loop.handle
            let log = Transcript()
            let entry = RunLoop.Observer(activities: .beforeWaiting, repeats: false) { _, _ in
                spawnThread {
                    Task(executorPreference: handle.taskExecutor) {
                        log.append(handle.isOnLoopThread ? "on loop" : "elsewhere")
                        handle.stop()
                    }
                }
            }
            loop.add(entry, forMode: .default)
            loop.add(RunLoop.Source {}, forMode: .default)
            #expect(loop.run(until: TimeSource.system.now() + .seconds(30)) == .stopped)
            #expect(log.entries == ["on loop"])
        }
    }

    @Test("checkIsolated() stops the program off the loop's thread, naming both threads")
    func checkIsolatedNamesBothThreads() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let loop = RunLoop()
            let executor = loop.executor
            let done = DispatchSemaphore(value: 0)
            spawnThread {
                executor.checkIsolated()
                done.signal()
            }
            _ = waitBounded(done)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("checkIsolated(): running on thread"))
        #expect(message.contains("on the run loop of thread"))
    }

    #if DEBUG
    @Test("Debug builds: an actor that outlives its loop stops the program with a clear message")
    func actorOutlivingItsLoopTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var loop: RunLoop? = RunLoop()
            let counter = LoopCounter(handle: loop!.handle, log: Transcript())
            loop = nil
            let done = DispatchSemaphore(value: 0)
            Task {
                await counter.increment()
                done.signal()
            }
            _ = waitBounded(done)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("which no longer exists; a loop must outlive every actor bound to it"))
    }

    @Test("Debug builds: an actor holding only its loop's executor, called after the loop is gone, stops the program")
    func actorHoldingOnlyTheExecutorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var loop: RunLoop? = RunLoop()
            let actor = ExecutorBoundActor(executor: loop!.executor.asUnownedSerialExecutor())
            loop = nil
            let done = DispatchSemaphore(value: 0)
            Task {
                await actor.touch()
                done.signal()
            }
            _ = waitBounded(done)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("for the run loop of thread"))
        #expect(message.contains("which no longer exists; a loop must outlive every actor bound to it"))
    }

    @Test("Debug builds: a loop that goes away with jobs still queued stops the program, saying how many")
    func loopGoingAwayWithQueuedJobsTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var loop: RunLoop? = RunLoop()
            for _ in 0..<2 { Task(executorPreference: loop!.taskExecutor) {} }
            loop = nil
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("went away with 2 job(s) queued, which will never run"))
    }

    @Test("Debug builds: jobs a pass took but left for the next count among those that would never run")
    func loopGoingAwayWithTakenJobsTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var loop: RunLoop? = RunLoop(timeSource: .virtual(VirtualClock()))
            for _ in 0..<(RunLoop.jobBatchLimit + 3) { Task(executorPreference: loop!.taskExecutor) {} }
            Task(executorPreference: loop!.taskExecutor) {}
            poll(loop!)  // one pass: 1,024 jobs run, 4 are left
            loop = nil
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("went away with 4 job(s) queued, which will never run"))
    }
    #endif

    @Test("A loop that ran its tasks to the end goes away quietly")
    func loopGoingAwayAfterItsJobsRan() {
        var loop: RunLoop? = RunLoop(timeSource: .virtual(VirtualClock()))
        let log = Transcript()
        Task(executorPreference: loop!.taskExecutor) { log.append("ran") }
        loop?.run(mode: .default, until: .zero)
        loop = nil
        #expect(log.entries == ["ran"])
    }
}

/// An actor bound to a run loop's executor.
actor LoopCounter {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    private let handle: RunLoop.Handle
    private let log: Transcript
    private var count = 0

    init(handle: RunLoop.Handle, log: Transcript) {
        unownedExecutor = handle.executor.asUnownedSerialExecutor()
        self.handle = handle
        self.log = log
    }

    func increment() {
        count += 1
        log.append("count \(count) \(handle.isOnLoopThread ? "on loop" : "elsewhere")")
    }
}

/// An actor that holds nothing of its loop but the unowned executor.
actor ExecutorBoundActor {
    nonisolated let unownedExecutor: UnownedSerialExecutor

    init(executor: UnownedSerialExecutor) {
        unownedExecutor = executor
    }

    func touch() {}
}

/// Runs one pass of `loop` (C-R3), from synchronous code.
private func poll(_ loop: RunLoop) {
    loop.run(mode: .default, until: .zero)
}

/// The wake-ups for work written to `loop`'s eventfd and not yet read; reads them.
private func pendingWakeUps(of loop: RunLoop) -> UInt64 {
    var count: UInt64 = 0
    return read(loop.shared.wakeDescriptor, &count, 8) == 8 ? count / LoopShared.wakeUpForWork : 0
}
