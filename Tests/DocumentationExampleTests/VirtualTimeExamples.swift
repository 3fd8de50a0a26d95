import Dispatch
import Glibc
import RunLoopKit
import RunLoopKitTesting
import Synchronization
import Testing
import TimeUnits

// The examples of ``VirtualTime`` (its documentation comment and the Testing Time article). The
// scope takes over the concurrency runtime of the whole process, so the scope itself runs only in
// the child process of the article's exit test.

private func virtualTimeExample() throws {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    try VirtualTime.run(on: loop) {
        Task {
            try await Task.sleep(for: .seconds(3_600))
            print(clock.now())  // an hour of virtual uptime, at once
        }
    }
}

private func outsideWorkExample(loop: RunLoop) async -> Int {
    let value = await withCheckedContinuation { continuation in
        let work = loop.handle.beginExternalWork()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) {
            continuation.resume(returning: 42)
            work.finish()
        }
    }
    return value
}

/// The article's timeout race: the winner, and the loop's time when the test ended.
private func cancelledTimeoutExample() throws -> (String, Instant) {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let winner = try VirtualTime.test(on: loop) {
        try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                try await Task.sleep(for: .seconds(1))
                return "work"
            }
            group.addTask {
                try await Task.sleep(for: .seconds(30))
                return "timeout"
            }
            let first = try await group.next() ?? "none"
            group.cancelAll()
            return first
        }
    }
    // winner == "work", at loop.now == Instant.zero + .seconds(1)
    return (winner, loop.now)
}

/// ``VirtualTime/isActive``'s example: whether the test's task saw the scope and ran on its loop.
private func scopeQueryExample() throws -> Bool {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let onTheLoop = try VirtualTime.test(on: loop) {
        VirtualTime.isActive && VirtualTime.activeLoop?.isOnLoopThread == true
    }
    // onTheLoop == true; after the test, VirtualTime.isActive == false
    return onTheLoop && !VirtualTime.isActive
}

/// Runs `work` on a dispatch queue; inside a scope the loop waits for it.
func runOutside(_ work: @escaping @Sendable () -> Void) {
    let declared = VirtualTime.activeLoop?.beginExternalWork()
    DispatchQueue.global().async {
        work()  // hands its result to the loop: resumes a continuation, posts a block
        declared?.finish()
    }
}

/// ``runOutside(_:)`` racing a 30 s timeout in a test: the outside work wins, at the virtual instant
/// the test started.
private func runOutsideExample() throws -> (Int, Instant) {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let handle = loop.handle
    let first = try VirtualTime.test(on: loop) {
        try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                await withCheckedContinuation { continuation in
                    runOutside { continuation.resume(returning: 42) }
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
    return (first, loop.now)
}

/// The article's test beside a background heartbeat: how many beats it saw.
private func backgroundHeartbeatExample() throws -> Int {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    var beats = 0
    let heartbeat = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true, on: loop) { _ in beats += 1 }
    heartbeat.isBackground = true
    try VirtualTime.test(on: loop) {
        try await Task.sleep(for: .seconds(10))  // ten beats meanwhile
    }
    // passes: the heartbeat left running is no leak
    heartbeat.invalidate()
    return beats
}

@Suite("The Testing Time article's exit tests")
struct VirtualTimeArticleExamples {
    @Test func anHourPassesAtOnce() async {
        await #expect(processExitsWith: .success) {
            exit(try anHourOfSleep() == "3600" ? 0 : 1)
        }
    }

    @Test func aCancelledTimeoutLeavesNothing() async {
        await #expect(processExitsWith: .success) {
            let (winner, now) = try cancelledTimeoutExample()
            exit(winner == "work" && now == Instant.zero + .seconds(1) ? 0 : 1)
        }
    }

    @Test func aBackgroundHeartbeatIsNoLeak() async {
        await #expect(processExitsWith: .success) {
            exit(try backgroundHeartbeatExample() == 10 ? 0 : 1)
        }
    }

    @Test func theScopeCanBeAskedFor() async {
        await #expect(processExitsWith: .success) {
            let before = !VirtualTime.isActive && VirtualTime.activeLoop == nil
            exit(try before && scopeQueryExample() ? 0 : 1)
        }
    }

    @Test func workRunOutsideIsWaitedFor() async {
        await #expect(processExitsWith: .success) {
            let (first, now) = try runOutsideExample()
            exit(first == 42 && now == .zero ? 0 : 1)
        }
    }
}

/// The virtual uptime, in seconds, after a task sleeps an hour in a ``VirtualTime`` scope.
private func anHourOfSleep() throws -> String {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    let slept = Mutex("")
    let record: @Sendable () -> Void = {
        let now = clock.now()
        slept.withLock { $0 = "\(now.nanoseconds / Nanoseconds.perSecond)" }
    }
    try VirtualTime.run(on: loop, resolution: .seconds(1)) {
        Task {
            try await Task.sleep(for: .seconds(3_600))
            record()
        }
    }
    return slept.withLock { $0 }
}
