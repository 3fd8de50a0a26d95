import Dispatch
import Glibc
import Synchronization
import TestSupport
import Testing

@testable import RunLoopKit
@testable import RunLoopKitTesting

/// Tests on virtual time fail instead of hanging: runaway, deadlock, leaks, watchdog.
@Suite("Virtual time: diagnostics that fail a test instead of hanging it")
struct VirtualTimeDiagnosticsTests {
    @Test("Runaway: a timer that re-arms itself at the same instant is named, with where it was made")
    func runawayNamesTheTimer() throws {
        let (loop, _) = makeVirtualLoop()
        loop.runawayLimits.passes = 50
        let line = #line + 1
        let spinner = Timer(fireAt: ms(1_000), interval: .seconds(1), repeats: true) { timer in
            timer.fireDate = loop.now
        }
        loop.add(spinner, forMode: .default)
        loop.setMetricsName("spinner", for: spinner)
        let error = #expect(throws: VirtualTimeError.self) { try loop.advance(by: .seconds(5)) }
        #expect(error?.kind == .runaway)
        #expect(error?.instant == ms(1_000))
        let site = CreationSite(fileID: "RunLoopKitTestingTests/VirtualTimeDiagnosticsTests.swift", line: line)
        #expect(error?.registrations.first?.site == site)
        #expect(error?.message.contains("50 passes ran with virtual time standing still at 1.000s") == true)
        #expect(error?.description.contains("timer \"spinner\" due at 1.000s made at \(site)") == true)
        spinner.invalidate()
    }

    @Test("Runaway: jobs that queue jobs forever with time standing still stop the run")
    func runawayJobs() throws {
        let (loop, _) = makeVirtualLoop()
        loop.runawayLimits.passes = 20
        let spinning = Atomic<Bool>(true)
        Task(executorPreference: loop.taskExecutor) {
            while spinning.load(ordering: .relaxed) { await Task.yield() }
        }
        let error = #expect(throws: VirtualTimeError.self) { try loop.runCurrent() }
        #expect(error?.kind == .runaway)
        #expect(error?.message.contains("executor jobs or blocks that keep queuing more") == true)
        spinning.store(false, ordering: .relaxed)
        try loop.runCurrent()
    }

    // ``VirtualTime/test(on:timeLimit:checkingLeaks:resolution:_:)`` takes over the runtime's global executor
    // for the process: each of these runs in a child process, which prints what it saw differ.

    @Test("VirtualTime.test: a task's sleeps take virtual time, and its result comes back")
    func testRunsTheTask() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childTestRunsTheTask())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test(
        "Outside work declared with beginExternalWork() holds virtual time: a result 50 ms away wins a 30 s timeout at 0"
    )
    func declaredOutsideWorkHoldsTime() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childOutsideWorkHoldsTime())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test(
        "Outside work that finished just before the drive moves on leaves its job due: time stays, the job runs at 0, then time jumps"
    )
    func finishedOutsideWorkIsRunBeforeAJump() {
        let (loop, clock) = makeVirtualLoop()
        let timeout = Timer(fireAt: ms(30_000), interval: .zero, repeats: false) { _ in }
        loop.add(timeout, forMode: .default)
        let ran = Transcript()
        // The state a dispatch queue leaves when it resumes a task and finishes its declared work
        // between the drive's last pass and its move: a job queued from another thread, no work
        // outstanding, and a deadline 30 s ahead.
        let work = loop.handle.beginExternalWork()
        DispatchQueue.global().sync {
            Task(executorPreference: loop.handle.taskExecutor) { ran.append("job at \(clock.now())") }
            work.finish()
        }
        #expect(!loop.handle.hasExternalWork && loop.handle.hasPendingJobs)
        #expect(throws: Never.self) { try loop.moveOn(on: clock) }
        #expect(loop.now == .zero, "the job is due: time must not jump to the timeout")
        #expect(throws: Never.self) { try loop.runCurrent() }
        #expect(ran.entries == ["job at \(Instant.zero)"])
        // Positive control: with nothing due, the drive jumps to the timeout.
        #expect(throws: Never.self) { try loop.moveOn(on: clock) }
        #expect(loop.now == ms(30_000))
        timeout.invalidate()
    }

    @Test("Deadlock: the test's task waits on a sleep in a mode that never runs; the error lists it")
    func deadlockListsWhatWaits() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childDeadlockListsWhatWaits())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Deadlock: a task awaiting a stream nobody feeds, with nothing scheduled, fails at once")
    func deadlockOnAStream() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childDeadlockOnAStream())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Leaks: timers and sleepers left when the task ends are listed with where they were made")
    func leaksAreListed() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childLeaksAreListed())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Leaks: a runtime sleep left behind names no line of the library, and says the runtime gives none")
    func runtimeSleepLeakNamesNoLibraryLine() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childRuntimeSleepLeak())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("A background heartbeat beats while the test's task sleeps, and is no leak when the test ends")
    func backgroundHeartbeatIsNoLeak() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childBackgroundHeartbeatIsNoLeak())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Deadlock: a task awaiting a stream while only a background heartbeat is scheduled fails at once")
    func deadlockBesideABackgroundHeartbeat() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childDeadlockBesideABackgroundHeartbeat())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Leaks: a test that leaves nothing behind passes")
    func noLeakNoError() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childNoLeakNoError())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Runaway: VirtualTime.test stops a task that yields without waiting at 100,000 jobs, and names the tasks")
    func jobRunawayStopsAtTheJobLimit() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childJobRunaway(limits: RunLoop.RunawayLimits(), expectedJobs: 100_000))
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Runaway: the loop's job limit is settable; 2,000 stops the same task at 2,000 jobs")
    func jobRunawayLimitIsSettable() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childJobRunaway(limits: RunLoop.RunawayLimits(jobs: 2_000), expectedJobs: 2_000))
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Teardown: after a deadlock the task is cancelled, its defer runs, and what it left is reported")
    func deadlockIsTornDown() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childDeadlockIsTornDown())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("Watchdog: a task waiting for input that never comes fails after its real-time limit")
    func watchdogEndsAWaitInVain() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childWatchdogEndsAWaitInVain())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }
}

/// The child of ``VirtualTimeDiagnosticsTests/testRunsTheTask()``: what differed, or `nil`.
private func childTestRunsTheTask() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let handle = loop.handle
    let slept = try VirtualTime.test(on: loop, resolution: .seconds(1)) {
        try await Task.sleep(for: .seconds(90))
        try await handle.sleep(for: .seconds(10))
        return handle.timeSource.now()
    }
    return mismatch(slept, ms(100_000))
}

/// The child of ``VirtualTimeDiagnosticsTests/declaredOutsideWorkHoldsTime()``: what differed, or `nil`.
/// Without the declaration the drive jumps to the timeout at 30 s and the race returns -1.
private func childOutsideWorkHoldsTime() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let handle = loop.handle
    let winner = try VirtualTime.test(on: loop) {
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    let work = handle.beginExternalWork()
                    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
                        continuation.resume(returning: 42)
                        work.finish()
                    }
                }
            }
            group.addTask {
                try await handle.sleep(for: .seconds(30))
                return -1
            }
            let first = try await group.next() ?? 0
            group.cancelAll()
            return first
        }
    }
    return mismatch(winner, 42) ?? mismatch(loop.now, .zero)
}

/// The child of ``VirtualTimeDiagnosticsTests/deadlockListsWhatWaits()``: what differed, or `nil`.
private func childDeadlockListsWhatWaits() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let handle = loop.handle
    let line = #line + 2
    do {
        try VirtualTime.test(on: loop) { try await handle.sleep(for: .seconds(1), inModes: [.tracking]) }
        return "no error"
    } catch let error as VirtualTimeError {
        let site = CreationSite(fileID: "RunLoopKitTestingTests/VirtualTimeDiagnosticsTests.swift", line: line)
        return mismatch(error.kind, .deadlock) ?? mismatch(error.message.contains("the test's task waits"), true)
            ?? mismatch(
                error.registrations.map(\.description), ["sleeper due at 1.000s made at \(site) in tracking"])
    }
}

/// The child of ``VirtualTimeDiagnosticsTests/deadlockOnAStream()``: what differed, or `nil`.
private func childDeadlockOnAStream() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let (stream, _) = AsyncStream.makeStream(of: Int.self)
    do {
        try VirtualTime.test(on: loop) { for await _ in stream {} }
        return "no error"
    } catch let error as VirtualTimeError {
        return mismatch(error.kind, .deadlock) ?? mismatch(error.registrations, [])
    }
}

/// The child of ``VirtualTimeDiagnosticsTests/leaksAreListed()``: what differed, or `nil`.
private func childLeaksAreListed() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let handle = loop.handle
    let timerLine = #line + 1
    let forgotten = Timer(fireAt: ms(60_000), interval: .zero, repeats: false) { _ in }
    loop.add(forgotten, forMode: .default)
    let sleepLine = #line + 3
    do {
        try VirtualTime.test(on: loop) {
            Task { try await handle.sleep(for: .seconds(10)) }
        }
        return "no error"
    } catch let error as VirtualTimeError {
        let file = "RunLoopKitTestingTests/VirtualTimeDiagnosticsTests.swift"
        return mismatch(error.kind, .leaked)
            ?? mismatch(
                error.registrations.map(\.description),
                [
                    "sleeper due at 10.000s made at \(file):\(sleepLine) in default",
                    "timer due at 60.000s made at \(file):\(timerLine) in default",
                ])
    }
}

/// The child of ``VirtualTimeDiagnosticsTests/runtimeSleepLeakNamesNoLibraryLine()``: what
/// differed, or `nil`. A `Task.sleep` and a `SuspendingClock` sleep are left waiting.
private func childRuntimeSleepLeak() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    do {
        try VirtualTime.test(on: loop) {
            Task { try await Task.sleep(for: .seconds(10)) }
            Task { try await SuspendingClock().sleep(for: .seconds(20)) }
        }
        return "no error"
    } catch let error as VirtualTimeError {
        return mismatch(error.kind, .leaked) ?? mismatch(error.registrations.map(\.site), [nil, nil])
            ?? mismatch(error.description.contains("RunLoopKitTesting/"), false)
            ?? mismatch(
                error.registrations.map(\.description),
                [
                    "sleeper \"ContinuousClock sleep (the runtime gives no call site)\" due at 10.000s in default",
                    "sleeper \"SuspendingClock sleep (the runtime gives no call site)\" due at 20.000s in default",
                ])
    }
}

/// A 1 Hz heartbeat on `loop` marked as a background timer, counting its beats in `beats`.
private func backgroundHeartbeat(on loop: RunLoop, counting beats: Transcript) -> Timer {
    let heartbeat = Timer(fireAt: ms(1_000), interval: .seconds(1), repeats: true) { _ in beats.append("beat") }
    heartbeat.isBackground = true
    loop.add(heartbeat, forMode: .default)
    return heartbeat
}

/// The child of ``VirtualTimeDiagnosticsTests/backgroundHeartbeatIsNoLeak()``: what differed, or
/// `nil`. Without the mark the heartbeat is a leak.
private func childBackgroundHeartbeatIsNoLeak() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let beats = Transcript()
    let heartbeat = backgroundHeartbeat(on: loop, counting: beats)
    defer { heartbeat.invalidate() }
    try VirtualTime.test(on: loop) { try await Task.sleep(for: .seconds(10)) }
    return mismatch(beats.entries.count, 10) ?? mismatch(loop.now, ms(10_000))
}

/// The child of ``VirtualTimeDiagnosticsTests/deadlockBesideABackgroundHeartbeat()``: what
/// differed, or `nil`. Without the mark the heartbeat moves time forever, until the watchdog.
private func childDeadlockBesideABackgroundHeartbeat() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let beats = Transcript()
    let heartbeat = backgroundHeartbeat(on: loop, counting: beats)
    defer { heartbeat.invalidate() }
    let (stream, _) = AsyncStream.makeStream(of: Int.self)
    do {
        try VirtualTime.test(on: loop, timeLimit: .seconds(5)) { for await _ in stream {} }
        return "no error"
    } catch let error as VirtualTimeError {
        let listed = "background timer due at 1.000s made at RunLoopKitTestingTests/VirtualTimeDiagnosticsTests.swift:"
        return mismatch(error.kind, .deadlock) ?? mismatch(error.instant, .zero) ?? mismatch(beats.entries, [])
            ?? mismatch(error.registrations.map(\.isBackground), [true])
            ?? mismatch(error.registrations.first?.description.hasPrefix(listed), true)
    }
}

/// The child of ``VirtualTimeDiagnosticsTests/noLeakNoError()``: what differed, or `nil`.
private func childNoLeakNoError() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    return mismatch(try VirtualTime.test(on: loop) { 1 }, 1)
}

/// The child of ``VirtualTimeDiagnosticsTests/watchdogEndsAWaitInVain()``: what differed, or `nil`.
private func childWatchdogEndsAWaitInVain() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return "no pipe" }
    let source = RunLoop.FileDescriptorSource(fileDescriptor: ends[0]) {}
    loop.add(source, forMode: .default)
    let (stream, _) = AsyncStream.makeStream(of: Int.self)
    do {
        try VirtualTime.test(on: loop, timeLimit: .milliseconds(300)) { for await _ in stream {} }
        return "no error"
    } catch let error as VirtualTimeError {
        return mismatch(error.kind, .watchdog) ?? mismatch(error.registrations.map(\.kind), [.descriptorSource])
    }
}

/// The child of ``VirtualTimeDiagnosticsTests/jobRunawayStopsAtTheJobLimit()`` and
/// ``VirtualTimeDiagnosticsTests/jobRunawayLimitIsSettable()``: a task yielding until it is
/// cancelled, under `limits`, must stop within a pass's jobs (1,024) of `expectedJobs` — each of
/// its turns is two jobs, its own and the yield's — be named as tasks, and end in the teardown.
/// Under the pass limit alone it would have run 10,000 passes of 1,024 jobs. What differed, or `nil`.
private func childJobRunaway(limits: RunLoop.RunawayLimits, expectedJobs: Int) throws -> String? {
    let (loop, _) = makeVirtualLoop()
    loop.runawayLimits = limits
    let yields = Atomic<Int>(0)
    do {
        try VirtualTime.test(on: loop) {
            while !Task.isCancelled {
                yields.add(1, ordering: .relaxed)
                await Task.yield()
            }
        }
        return "no error"
    } catch let error as VirtualTimeError {
        let jobs = error.message.firstMatch(of: /(\d+) executor jobs in/).flatMap { Int($0.1) } ?? 0
        let turns = yields.load(ordering: .relaxed)
        return mismatch(error.kind, .runaway)
            ?? mismatch((expectedJobs...expectedJobs + 1_024).contains(jobs), true).map { "\(jobs) jobs: \($0)" }
            ?? mismatch(abs(turns * 2 - jobs) <= 2, true).map { "\(turns) turns for \(jobs) jobs: \($0)" }
            ?? mismatch(error.message.contains("tasks that yield without waiting"), true)
            ?? mismatch(error.message.contains("the test's task was cancelled and it ended"), true)
    }
}

/// The child of ``VirtualTimeDiagnosticsTests/deadlockIsTornDown()``: what differed, or `nil`.
/// Without the teardown the task never resumes: its `defer` does not run and nothing is reported
/// as left.
private func childDeadlockIsTornDown() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let handle = loop.handle
    let tornDown = Atomic<Bool>(false)
    let line = #line + 1
    let leftBehind = Timer(fireAt: ms(10_000), interval: .seconds(10), repeats: true) { _ in }
    loop.add(leftBehind, forMode: .tracking)
    defer { leftBehind.invalidate() }
    do {
        try VirtualTime.test(on: loop) {
            defer { tornDown.store(true, ordering: .relaxed) }
            try await handle.sleep(for: .seconds(1), inModes: [.tracking])
        }
        return "no error"
    } catch let error as VirtualTimeError {
        let site = CreationSite(fileID: "RunLoopKitTestingTests/VirtualTimeDiagnosticsTests.swift", line: line)
        return mismatch(error.kind, .deadlock) ?? mismatch(tornDown.load(ordering: .relaxed), true)
            ?? mismatch(error.message.contains("the test's task was cancelled and it ended"), true)
            ?? mismatch(
                error.leftAfterTeardown.map(\.description), ["timer due at 10.000s made at \(site) in tracking"])
            ?? mismatch(error.description.contains("left after the teardown:"), true)
    }
}
