import Glibc
import RunLoopKit
import RunLoopKitTesting
import TestSupport
import Testing

/// A runtime sleep cancelled inside a ``VirtualTime`` scope leaves nothing on the loop: its timer
/// is gone by the time its task resumes, so a timeout that lost its race is neither a leak nor a
/// deadline the scope jumps to. Each test takes over the runtime, so each runs in a child process.
@Suite("VirtualTime: a cancelled runtime sleep leaves nothing on the loop")
struct VirtualTimeCancellationTests {
    @Test("A task group racing 1 s of work against a 30 s sleep passes with leaks checked, at the winner's instant")
    func timeoutRace() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childTimeoutRace())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("VirtualTime.run ends at the winner's instant, not at the cancelled sleep's deadline")
    func runEndsAtTheWinner() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childRunEndsAtTheWinner())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test(
        "Task.sleep(for:), Task.sleep(nanoseconds:), Task.sleep(until:clock:), ContinuousClock and SuspendingClock sleeps cancelled on the loop: no sleeper when the task resumes"
    )
    func everyRuntimeSleepCancelledOnTheLoop() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childEveryRuntimeSleepCancelled())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test("A ContinuousClock sleep cancelled from another thread is gone when its task resumes")
    func cancelledFromAnotherThread() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childCancelledFromAnotherThread())
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }

    @Test(
        "100,000 cancelled one-hour sleeps leave no registration and no memory behind, and virtual time does not move"
    )
    func manyCancelledSleeps() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            reportAndExit(try childManyCancelledSleeps(batches: 100, of: 1_000))
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(!errors.contains("differed:"), "\(errors)")
    }
}

/// The loop, for code of the scope that runs on its thread (its tasks): a `RunLoop` is not `Sendable`.
private struct LoopOnItsThread: @unchecked Sendable {
    let loop: RunLoop
    /// The sleepers of the loop's default mode; call on the loop's thread.
    var sleepers: Int { loop.registrationCount(of: .sleeper, inMode: .default) }

    /// Lets the loop's other tasks run until `count` sleepers wait, or a hundred turns have passed:
    /// a runtime sleep reaches the loop a few jobs after its task calls it.
    func yield(untilSleepers count: Int) async {
        for _ in 0..<100 where sleepers < count { await Task.yield() }
    }
}

/// Races `work` of `Task.sleep` against a `ContinuousClock` sleep of `timeout`, cancelling the loser.
private func race(work: Duration, timeout: Duration) async throws -> String {
    try await withThrowingTaskGroup(of: String.self) { group in
        group.addTask {
            try await Task.sleep(for: work)
            return "work"
        }
        group.addTask {
            try await ContinuousClock().sleep(for: timeout)
            return "timeout"
        }
        let first = try await group.next() ?? "none"
        group.cancelAll()
        return first
    }
}

/// The child of ``VirtualTimeCancellationTests/timeoutRace()``: what differed, or `nil`. Without
/// the removal the cancelled timeout is a leak.
private func childTimeoutRace() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let winner = try VirtualTime.test(on: loop) { try await race(work: .seconds(1), timeout: .seconds(30)) }
    return mismatch(winner, "work") ?? mismatch(loop.now, ms(1_000))
        ?? mismatch(loop.registrationCount(of: .sleeper, inMode: .default), 0)
}

/// The child of ``VirtualTimeCancellationTests/runEndsAtTheWinner()``: what differed, or `nil`.
/// Without the removal the scope waits for the cancelled sleep and ends at 100 s.
private func childRunEndsAtTheWinner() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let transcript = Transcript()
    try VirtualTime.run(on: loop) {
        Task { transcript.append(try await race(work: .seconds(1), timeout: .seconds(100))) }
    }
    return mismatch(transcript.entries, ["work"]) ?? mismatch(loop.now, ms(1_000))
        ?? mismatch(loop.registrationCount(of: .sleeper, inMode: .default), 0)
}

/// The child of ``VirtualTimeCancellationTests/everyRuntimeSleepCancelledOnTheLoop()``: what
/// differed, or `nil`. Each sleep is seen waiting, then cancelled by the test's task; the sleeping
/// task, resumed with `CancellationError`, counts the sleepers left.
private func childEveryRuntimeSleepCancelled() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let reader = LoopOnItsThread(loop: loop)
    let sleeps: [(name: String, sleep: @Sendable () async throws -> Void)] = [
        ("Task.sleep(for:)", { try await Task.sleep(for: .seconds(3_600)) }),
        ("Task.sleep(nanoseconds:)", { try await Task.sleep(nanoseconds: 3_600_000_000_000) }),
        ("Task.sleep(until:clock:)", { try await Task.sleep(until: .now + .seconds(3_600), clock: .continuous) }),
        ("ContinuousClock", { try await ContinuousClock().sleep(for: .seconds(3_600)) }),
        ("SuspendingClock", { try await SuspendingClock().sleep(for: .seconds(3_600)) }),
    ]
    let seen = try VirtualTime.test(on: loop) {
        var seen: [String] = []
        for (name, sleep) in sleeps {
            let sleeper = Task { () -> String in
                do {
                    try await sleep()
                    return "woke"
                } catch {
                    return error is CancellationError ? "\(reader.sleepers)" : "\(error)"
                }
            }
            await reader.yield(untilSleepers: 1)
            let waiting = reader.sleepers
            sleeper.cancel()
            seen.append("\(name): \(waiting) -> \(await sleeper.value)")
        }
        return seen
    }
    return mismatch(seen, sleeps.map { "\($0.name): 1 -> 0" }) ?? mismatch(loop.now, .zero)
}

/// The child of ``VirtualTimeCancellationTests/cancelledFromAnotherThread()``: what differed, or
/// `nil`. Outside work declared until the thread has cancelled keeps the drive from jumping to the
/// sleep's deadline meanwhile.
private func childCancelledFromAnotherThread() throws -> String? {
    let (loop, _) = makeVirtualLoop()
    let reader = LoopOnItsThread(loop: loop)
    let handle = loop.handle
    let (waiting, left) = try VirtualTime.test(on: loop) {
        let sleeper = Task { () -> Int in
            do {
                try await ContinuousClock().sleep(for: .seconds(3_600))
                return -1
            } catch {
                return reader.sleepers
            }
        }
        await reader.yield(untilSleepers: 1)
        let waiting = reader.sleepers
        let work = handle.beginExternalWork()
        spawnThread {
            sleeper.cancel()
            work.finish()
        }
        return (waiting, await sleeper.value)
    }
    return mismatch(waiting, 1) ?? mismatch(left, 0) ?? mismatch(loop.now, .zero)
}

/// The child of ``VirtualTimeCancellationTests/manyCancelledSleeps()``: what differed, or
/// `nil`. `batches` times, `size` tasks each start a one-hour `Task.sleep`, are seen waiting, and
/// are cancelled. Leaks are checked by `VirtualTime.test` itself. The resident memory after the
/// tenth batch and at the end are within 20 % of each other: a cancelled sleep whose runtime state
/// was never freed (its wake-up job never run) would add some 300 bytes each, 27 MB over the last
/// 90 batches (the resident memory nearly doubles), while the process's own drift stays under 6 %
/// beside a CPU hog (the runtime's threads and the allocator's caches).
private func childManyCancelledSleeps(batches: Int, of size: Int) throws -> String? {
    let (loop, _) = makeVirtualLoop()
    // Every job of the run is at virtual instant zero: several for each of the 100,000 sleeps.
    loop.runawayLimits.jobs = 10_000_000
    let reader = LoopOnItsThread(loop: loop)
    let counts = try VirtualTime.test(on: loop) {
        var waiting = Set<Int>()
        var cancelled = 0
        var residentAtStart = 0
        for batch in 0..<batches {
            if batch == 10 { residentAtStart = residentBytes() }
            let sleepers = (0..<size).map { _ in Task { try await Task.sleep(for: .seconds(3_600)) } }
            await reader.yield(untilSleepers: size)
            waiting.insert(reader.sleepers)
            for sleeper in sleepers { sleeper.cancel() }
            for sleeper in sleepers where (try? await sleeper.value) == nil { cancelled += 1 }
        }
        return (waiting, cancelled, reader.sleepers, residentAtStart)
    }
    let (waiting, cancelled, left, residentAtStart) = counts
    let grown = Double(residentBytes() - residentAtStart) / Double(residentAtStart)
    return mismatch(waiting, [size]) ?? mismatch(cancelled, batches * size) ?? mismatch(left, 0)
        ?? mismatch(loop.now, .zero) ?? mismatch(loop.registrations(inMode: .default), [])
        ?? (grown < 0.2 ? nil : "resident memory grew by \(Int(grown * 100)) %, from \(residentAtStart) bytes")
}

/// The process's resident memory, in bytes (`/proc/self/statm`'s second field, in pages).
private func residentBytes() -> Int {
    let descriptor = open("/proc/self/statm", O_RDONLY)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = read(descriptor, &buffer, buffer.count)
    let fields = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * sysconf(Int32(_SC_PAGESIZE)) : 0
}
