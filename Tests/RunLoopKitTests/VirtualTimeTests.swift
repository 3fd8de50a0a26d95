import Glibc
import RunLoopKit
import Synchronization
import Testing

/// ``VirtualTime`` replaces the concurrency runtime's global executor for the whole process, so
/// each test runs its scope in a child process (an exit test) and reads the outcome from its
/// exit status: 0 only when the child saw exactly the expected virtual times.
@Suite("VirtualTime: a process-wide virtual-time scope")
struct VirtualTimeTests {
    @Test("Task {}, Task.sleep and ContinuousClock sleeps give the same exact virtual times, 100 times")
    func chainGetsExactVirtualTimes() async {
        await #expect(processExitsWith: .success) {
            let runs = (0..<100).map { _ in sleepChain(inScope: true) }
            exit(runs.allSatisfy { $0 == expectedChain } ? 0 : 1)
        }
    }

    @Test("Without the scope the same tasks sleep in real time: the virtual loop never sees them wake")
    func withoutScopeTimesAreReal() async {
        await #expect(processExitsWith: .success) {
            exit(sleepChain(inScope: false).isEmpty ? 0 : 1)
        }
    }

    @Test(
        "A sleep of 1.5 s takes 2 s of virtual time at a 1 s resolution, and equal deadlines resume in the order they slept"
    )
    func roundedDelaysInOrder() async {
        await #expect(processExitsWith: .success) {
            exit(equalDeadlines() == ["a 2 s", "b 2 s", "c 2 s"] ? 0 : 1)
        }
    }

    @Test("A task made on a thread that is no task runs on the loop and sleeps in virtual time")
    func taskFromOtherThread() async {
        await #expect(processExitsWith: .success) {
            exit(taskFromAThread() == ["thread 1 min 30 s"] ? 0 : 1)
        }
    }

    @Test("A task that neither sleeps nor ends stops the program with a message once the job limit is reached")
    func runawayTaskStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            yieldForever()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("jobs ran with virtual time standing still at 5.000s"))
    }

    @Test("A scope inside a scope stops the program")
    func nestedScopeStops() async {
        await #expect(processExitsWith: .failure) {
            nestScopes()
        }
    }

    @Test(
        "In a scope ContinuousClock.now reads the loop's continuous time and SuspendingClock.now its uptime, to the nanosecond"
    )
    func runtimeClocksReadVirtualTime() async {
        await #expect(processExitsWith: .success) {
            exit(runtimeClockReads() == ["continuous 11.500000001 seconds, suspending 1.500000001 seconds"] ? 0 : 1)
        }
    }

    @Test("The scope replaces the runtime's hook and restores it: after it a sleep takes real time again")
    func hookRestored() async {
        await #expect(processExitsWith: .success) {
            exit(scopeReplacesAndRestoresHook() && sleepChain(inScope: false).isEmpty ? 0 : 1)
        }
    }
}

/// The virtual times, since the start of the run, at which `sleepChain(inScope: true)` records.
private let expectedChain = [
    "task 1 h", "detached 1 h 5 min", "clock 1 h 5 min 30 s", "child 2 h 5 min 30 s", "done 2 h 5 min 30 s",
]

/// A chain of unstructured, detached and child tasks sleeping with `Task.sleep` and
/// `ContinuousClock`, run on a new virtual loop — in a ``VirtualTime`` scope or, without it, for
/// ten virtual hours; returns what it recorded, with the virtual time of each record.
private func sleepChain(inScope: Bool) -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(clock: .virtual(clock))
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
        VirtualTime.run(on: loop, resolution: .seconds(1), start)
    } else {
        start()
        // Something in the loop, so that its run jumps ten virtual hours instead of returning.
        let timer = Timer(interval: .seconds(36_000), repeats: false) { _ in }
        loop.add(timer, forMode: .default)
        loop.run(mode: .default)
    }
    return log.withLock { $0 }
}

/// Three tasks sleeping 1.5 s with `Task.sleep(nanoseconds:)`, in order a, b, c, at a resolution of
/// a second: a preemption of up to half a second between the sleep's call and its timer leaves the
/// result exact.
private func equalDeadlines() -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(clock: .virtual(clock))
    let log = Mutex<[String]>([])
    let record: @Sendable (String) -> Void = { name in
        let now = clock.now()
        log.withLock { $0.append("\(name) \(describe(now.nanoseconds))") }
    }
    VirtualTime.run(on: loop, resolution: .seconds(1)) {
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
private func taskFromAThread() -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(clock: .virtual(clock))
    let log = Mutex<[String]>([])
    let record: @Sendable () -> Void = {
        let now = clock.now()
        log.withLock { $0.append("thread \(describe(now.nanoseconds))") }
    }
    VirtualTime.run(on: loop, resolution: .seconds(1)) {
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
private func runtimeClockReads() -> [String] {
    let clock = VirtualClock()
    let loop = RunLoop(clock: .virtual(clock))
    let log = Mutex<[String]>([])
    let record: @Sendable (String) -> Void = { line in log.withLock { $0.append(line) } }
    VirtualTime.run(on: loop, resolution: .nanoseconds(1)) {
        Task {
            let (continuous, suspending) = (ContinuousClock.now, SuspendingClock.now)
            try await Task.sleep(for: .nanoseconds(1_500_000_001))
            clock.sleep(.seconds(10))
            record("continuous \(continuous.duration(to: .now)), suspending \(suspending.duration(to: .now))")
        }
    }
    return log.withLock { $0 }
}

/// A task that yields forever, after five virtual seconds of sleep, with a limit of 1000 jobs.
private func yieldForever() {
    let loop = RunLoop(clock: .virtual(VirtualClock()))
    VirtualTime.run(on: loop, resolution: .seconds(1), runawayJobLimit: 1_000) {
        Task {
            try await Task.sleep(for: .seconds(5))
            while true { await Task.yield() }
        }
    }
}

/// Opens a scope inside another.
private func nestScopes() {
    let loop = RunLoop(clock: .virtual(VirtualClock()))
    VirtualTime.run(on: loop) { VirtualTime.run(on: loop) {} }
}

/// Whether the runtime's global-executor hook differs inside a scope and is back after it.
private func scopeReplacesAndRestoresHook() -> Bool {
    let before = enqueueGlobalHook.pointee
    let during = VirtualTime.run(on: RunLoop(clock: .virtual(VirtualClock()))) { enqueueGlobalHook.pointee }
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
