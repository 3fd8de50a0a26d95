import Glibc
import RunLoopKit
import RunLoopKitTesting
import Synchronization
import TestSupport
import Testing
import TimeUnits

/// ``VirtualTime`` replaces the concurrency runtime's global executor for the whole process, so
/// each test runs its scope in a child process (an exit test) and reads the outcome from its
/// exit status: 0 only when the child saw exactly the expected virtual times.
@Suite("VirtualTime: a process-wide virtual-time scope")
struct VirtualTimeTests {
    @Test("Task {}, Task.sleep and ContinuousClock sleeps give the same exact virtual times, 100 times")
    func chainGetsExactVirtualTimes() async {
        await #expect(processExitsWith: .success) {
            let runs = try (0..<100).map { _ in try sleepChain(inScope: true) }
            exit(runs.allSatisfy { $0 == expectedChain } ? 0 : 1)
        }
    }

    @Test("Without the scope the same tasks sleep in real time: the virtual loop never sees them wake")
    func withoutScopeTimesAreReal() async {
        await #expect(processExitsWith: .success) {
            exit(try sleepChain(inScope: false).isEmpty ? 0 : 1)
        }
    }

    @Test(
        "A sleep of 1.5 s takes 2 s of virtual time at a 1 s resolution, and equal deadlines resume in the order they slept"
    )
    func roundedDelaysInOrder() async {
        await #expect(processExitsWith: .success) {
            exit(try equalDeadlines() == ["a 2 s", "b 2 s", "c 2 s"] ? 0 : 1)
        }
    }

    @Test("A task made on a thread that is no task runs on the loop and sleeps in virtual time")
    func taskFromOtherThread() async {
        await #expect(processExitsWith: .success) {
            exit(try taskFromAThread() == ["thread 1 min 30 s"] ? 0 : 1)
        }
    }

    @Test(
        "A task that neither sleeps nor ends makes the scope throw a runaway at its instant once the job limit is reached"
    )
    func runawayTaskThrows() async {
        await #expect(processExitsWith: .success) {
            // The spinning task's jobs stay queued on the loop, which must outlive them.
            let loop = RunLoop(timeSource: .virtual(VirtualClock()))
            let error = thrownError { try yieldForever(on: loop) }
            let expected = "jobs in"
            let message = "ran with virtual time standing still at 5.000s: tasks that yield without waiting"
            let matches =
                error?.kind == .runaway && error?.instant == Instant.zero + .seconds(5)
                && error?.message.contains(expected) == true && error?.message.contains(message) == true
            withExtendedLifetime(loop) { exit(matches ? 0 : 1) }
        }
    }

    @Test("A timer that re-arms itself at one instant makes the scope throw a runaway naming it and where it was made")
    func runawayTimerThrows() async {
        await #expect(processExitsWith: .success) {
            let (line, error) = spinningTimer()
            let site = CreationSite(fileID: "RunLoopKitTestingTests/VirtualTimeTests.swift", line: line)
            let matches =
                error?.kind == .runaway && error?.instant == Instant.zero + .seconds(1)
                && error?.registrations.first?.site == site
                && error?.description.contains("50 passes ran with virtual time standing still at 1.000s") == true
                && error?.description.contains("timer \"spinner\" due at 1.000s made at \(site)") == true
            exit(matches ? 0 : 1)
        }
    }

    @Test("A scope on a loop whose clock is not virtual throws, and installs nothing")
    func notVirtualThrows() throws {
        let loop = RunLoop()
        let error = #expect(throws: VirtualTimeError.self) { try VirtualTime.run(on: loop) {} }
        #expect(error?.kind == .notVirtual)
        #expect(error?.message.contains("RunLoop(timeSource: .virtual(VirtualClock()))") == true)
    }

    @Test("VirtualTime.test on a loop whose clock is not virtual throws before it queues the body")
    func testOnARealLoopQueuesNothing() throws {
        let loop = RunLoop()
        let ran = Transcript()
        let error = #expect(throws: VirtualTimeError.self) {
            try VirtualTime.test(on: loop) { ran.append("body") }
        }
        #expect(error?.kind == .notVirtual)
        loop.run(mode: .default, until: .zero)  // one pass, without waiting: a queued body would run
        #expect(ran.entries.isEmpty)
    }

    @Test(
        "VirtualTime.isActive and activeLoop: the scope's loop in its tasks and on other threads, nothing before or after"
    )
    func scopeQuery() async {
        await #expect(processExitsWith: .success) {
            exit(try scopeQueries() == expectedScopeQueries ? 0 : 1)
        }
    }

    @Test("A scope inside a scope stops the program")
    func nestedScopeStops() async {
        await #expect(processExitsWith: .failure) {
            try nestScopes()
        }
    }

    @Test(
        "In a scope ContinuousClock.now reads the loop's continuous time and SuspendingClock.now its uptime, to the nanosecond"
    )
    func runtimeClocksReadVirtualTime() async {
        await #expect(processExitsWith: .success) {
            exit(try runtimeClockReads() == ["continuous 11.500000001 seconds, suspending 1.500000001 seconds"] ? 0 : 1)
        }
    }

    @Test("The scope replaces the runtime's hook and restores it: after it a sleep takes real time again")
    func hookRestored() async {
        await #expect(processExitsWith: .success) {
            exit(try scopeReplacesAndRestoresHook() && sleepChain(inScope: false).isEmpty ? 0 : 1)
        }
    }
}

/// What ``scopeQueries()`` sees: whether a scope is active, and whether the caller runs on its loop.
private let expectedScopeQueries = [
    "before: inactive", "test's task: on the loop", "thread: active, off the loop", "timer: on the loop",
    "between: inactive", "run's body: on the loop", "run's task: on the loop", "after: inactive",
]

/// ``VirtualTime/isActive`` and ``VirtualTime/activeLoop`` asked before, in and after a
/// `VirtualTime.test` and a `VirtualTime.run`, from their tasks, a thread and a timer's callout.
private func scopeQueries() throws -> [String] {
    let (loop, _) = makeVirtualLoop()
    let handle = loop.handle
    let seen = Transcript()
    let ask: @Sendable (String) -> Void = { place in
        guard VirtualTime.isActive, let active = VirtualTime.activeLoop else {
            return seen.append("\(place): \(VirtualTime.activeLoop == nil ? "inactive" : "loop without scope")")
        }
        let position = active.isOnLoopThread ? "on the loop" : "active, off the loop"
        let sameLoop = active.timeSource.virtualClock === handle.timeSource.virtualClock
        seen.append("\(place): \(sameLoop ? position : "another loop")")
    }
    ask("before")
    try VirtualTime.test(on: loop) {
        ask("test's task")
        await withCheckedContinuation { continuation in
            let work = handle.beginExternalWork()
            spawnThread {
                ask("thread")
                continuation.resume()
                work.finish()
            }
        }
        try await handle.sleep(for: .seconds(1))
    }
    loop.add(Timer(fireAt: ms(1_500), interval: .zero, repeats: false) { _ in ask("timer") }, forMode: .default)
    try VirtualTime.run(on: loop) { try loop.advance(by: .seconds(1)) }
    ask("between")
    try VirtualTime.run(on: loop) {
        ask("run's body")
        Task { ask("run's task") }
    }
    ask("after")
    return seen.entries
}

/// The virtual times, since the start of the run, at which `sleepChain(inScope: true)` records.
private let expectedChain = [
    "task 1 h", "detached 1 h 5 min", "clock 1 h 5 min 30 s", "child 2 h 5 min 30 s", "done 2 h 5 min 30 s",
]

/// A chain of unstructured, detached and child tasks sleeping with `Task.sleep` and
/// `ContinuousClock`, run on a new virtual loop — in a ``VirtualTime`` scope or, without it, for
/// ten virtual hours; returns what it recorded, with the virtual time of each record.
private func sleepChain(inScope: Bool) throws -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    let log = Mutex<[String]>([])
    let record: @Sendable (String) -> Void = { name in
        let now = clock.now()
        log.withLock { $0.append("\(name) \(describe(now.nanoseconds))") }
    }
    let start: @Sendable () -> Void = {
        Task {
            try await Task.sleep(for: .seconds(3_600))
            record("task")
            await Task.detached {
                try? await Task.sleep(for: .seconds(300))
                record("detached")
            }.value
            try await ContinuousClock().sleep(for: .seconds(30))
            record("clock")
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    try? await Task.sleep(for: .seconds(3_600))
                    record("child")
                }
            }
            record("done")
        }
    }
    if inScope {
        // Sleeps of whole seconds, rounded to the second: exact even if the machine is busy.
        try VirtualTime.run(on: loop, resolution: .seconds(1), start)
    } else {
        start()
        // Something in the loop, so that its run jumps ten virtual hours instead of returning.
        let timer = Timer(fireAt: loop.now + .seconds(36_000), interval: .zero, repeats: false) { _ in }
        loop.add(timer, forMode: .default)
        loop.run(mode: .default)
    }
    return log.withLock { $0 }
}

/// Three tasks sleeping 1.5 s with `Task.sleep(nanoseconds:)`, in order a, b, c, at a resolution of
/// a second: a preemption of up to half a second between the sleep's call and its timer leaves the
/// result exact.
private func equalDeadlines() throws -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    let log = Mutex<[String]>([])
    let record: @Sendable (String) -> Void = { name in
        let now = clock.now()
        log.withLock { $0.append("\(name) \(describe(now.nanoseconds))") }
    }
    try VirtualTime.run(on: loop, resolution: .seconds(1)) {
        Task {
            for name in ["a", "b", "c"] {
                Task {
                    try await Task.sleep(nanoseconds: 1_500_000_000)
                    record(name)
                }
            }
        }
    }
    return log.withLock { $0 }
}

/// A task made on a new thread (no task, announced as work outside the loop) that sleeps 90 s;
/// returns what it recorded.
private func taskFromAThread() throws -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    let log = Mutex<[String]>([])
    let record: @Sendable () -> Void = {
        let now = clock.now()
        log.withLock { $0.append("thread \(describe(now.nanoseconds))") }
    }
    try VirtualTime.run(on: loop, resolution: .seconds(1)) {
        let work = loop.handle.beginExternalWork()
        spawnThread {
            Task {
                try await Task.sleep(for: .seconds(90))
                record()
            }
            work.finish()
        }
    }
    return log.withLock { $0 }
}

/// What `ContinuousClock.now` and `SuspendingClock.now` moved by in a scope at a nanosecond's
/// resolution, across a sleep of 1.500000001 s and then a simulated machine sleep of 10 s
/// (continuous time moves, uptime does not).
private func runtimeClockReads() throws -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    let log = Mutex<[String]>([])
    let record: @Sendable (String) -> Void = { line in log.withLock { $0.append(line) } }
    try VirtualTime.run(on: loop, resolution: .nanoseconds(1)) {
        Task {
            let (continuous, suspending) = (ContinuousClock.now, SuspendingClock.now)
            try await Task.sleep(for: .nanoseconds(1_500_000_001))
            clock.sleepMachine(for: .seconds(10))
            record("continuous \(continuous.duration(to: .now)), suspending \(suspending.duration(to: .now))")
        }
    }
    return log.withLock { $0 }
}

/// A task on `loop` that yields forever, after five virtual seconds of sleep, with a limit of
/// 1000 jobs.
private func yieldForever(on loop: RunLoop) throws {
    loop.runawayLimits.jobs = 1_000
    try VirtualTime.run(on: loop, resolution: .seconds(1)) {
        Task {
            try await Task.sleep(for: .seconds(5))
            while true { await Task.yield() }
        }
    }
}

/// A timer named "spinner" that re-arms itself at 1 s while a task sleeps 10 s, with a limit of
/// 50 passes; returns the line that made the timer and the error the scope threw.
private func spinningTimer() -> (line: Int, error: VirtualTimeError?) {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    loop.runawayLimits.passes = 50
    let line = #line + 3
    let error = thrownError {
        try VirtualTime.run(on: loop, resolution: .seconds(1)) {
            let spinner = Timer(fireAt: .zero + .seconds(1), interval: .seconds(1), repeats: true) { timer in
                timer.fireDate = loop.now
            }
            loop.add(spinner, forMode: .default)
            loop.setMetricsName("spinner", for: spinner)
            Task { try await Task.sleep(for: .seconds(10)) }
        }
    }
    return (line, error)
}

/// The ``VirtualTimeError`` `body` threw, if it threw one.
private func thrownError(_ body: () throws -> Void) -> VirtualTimeError? {
    do {
        try body()
        return nil
    } catch {
        return error as? VirtualTimeError
    }
}

/// Opens a scope inside another.
private func nestScopes() throws {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    try VirtualTime.run(on: loop) { try VirtualTime.run(on: loop) {} }
}

/// Whether the runtime's global-executor hook differs inside a scope and is back after it.
private func scopeReplacesAndRestoresHook() throws -> Bool {
    let before = enqueueGlobalHook.pointee
    let during = try VirtualTime.run(on: RunLoop(timeSource: .virtual(VirtualClock()))) { enqueueGlobalHook.pointee }
    return during != before && enqueueGlobalHook.pointee == before
}

/// The concurrency runtime's `swift_task_enqueueGlobal_hook` variable.
private var enqueueGlobalHook: UnsafeMutablePointer<UInt> {
    dlsym(dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook")!.assumingMemoryBound(to: UInt.self)
}

/// `nanoseconds` in hours, minutes, seconds and milliseconds, leaving out zero parts.
private func describe(_ nanoseconds: Int64) -> String {
    let parts: [(Int64, String)] = [
        (nanoseconds / 3_600_000_000_000, "h"), (nanoseconds / 60_000_000_000 % 60, "min"),
        (nanoseconds / Nanoseconds.perSecond % 60, "s"),
    ]
    var words = parts.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    let fraction = nanoseconds % Nanoseconds.perSecond
    if fraction > 0 {
        let milliseconds = Nanoseconds.milliseconds(fraction)
        words.append(
            fraction % Nanoseconds.perMillisecond == 0
                ? "\(fraction / Nanoseconds.perMillisecond) ms" : "\(milliseconds) ms")
    }
    return words.isEmpty ? "0" : words.joined(separator: " ")
}
