import Foundation
import RunLoopKit
import TestSupport
import Testing

@testable import RunLoopKitTesting

/// The trait runs each test in a child process on virtual time, and brings the child's failures
/// back: the fixtures below run only in a child named after them, and fail there on purpose.
@Suite("The virtual-time trait: a child process per test, its failures reported")
struct VirtualTimeTraitTests {
    @Test("A test with the trait runs in a child process, on a loop of its own, on virtual time")
    func runsInAChild() async throws {
        #expect(ProcessInfo.processInfo.environment[VirtualTimeTrait.childVariable] == nil)
        try await ChildProcess.run(
            testID: "RunLoopKitTestingTests.VirtualTimeTraitFixtures/recordsItsProcess()",
            variable: VirtualTimeTrait.childVariable)
    }

    @Test("A deadlock in the child fails the test with the error's words, instead of hanging")
    func deadlockReported() async throws {
        let failure = await #expect(throws: ChildProcess.Failure.self) {
            try await ChildProcess.run(
                testID: "RunLoopKitTestingTests.VirtualTimeTraitFixtures/deadlocks()",
                variable: VirtualTimeTrait.childVariable)
        }
        #expect(
            failure?.report.contains("deadlock at 5.000s: the test's task waits") == true,
            "\(String(describing: failure))")
    }

    @Test("A leak in the child fails the test, naming the sleeper and where it slept")
    func leakReported() async throws {
        let failure = await #expect(throws: ChildProcess.Failure.self) {
            try await ChildProcess.run(
                testID: "RunLoopKitTestingTests.VirtualTimeTraitFixtures/leavesASleeper()",
                variable: VirtualTimeTrait.childVariable)
        }
        #expect(
            failure?.report.contains("timers, sleepers or timeouts still scheduled") == true,
            "\(String(describing: failure))")
    }

    @Test("The trait's runaway limits reach its loop: 3,000 jobs stop a task that yields, which the teardown ends")
    func runawayLimitsReachTheLoop() async throws {
        let failure = await #expect(throws: ChildProcess.Failure.self) {
            try await ChildProcess.run(
                testID: "RunLoopKitTestingTests.VirtualTimeRunawayFixtures/yieldsUntilCancelled()",
                variable: VirtualTimeTrait.childVariable)
        }
        let report = failure?.report ?? ""
        let jobs = report.firstMatch(of: /(\d+) executor jobs in/).flatMap { Int($0.1) }
        #expect(jobs.map { (3_000...4_025).contains($0) } == true, "\(report)")
        #expect(report.contains("tasks that yield without waiting"), "\(report)")
        #expect(report.contains("the test's task was cancelled and it ended"), "\(report)")
    }

    @Test("A name that matches no test is an error, not a silent pass")
    func unknownTestRefused() async throws {
        let failure = await #expect(throws: ChildProcess.Failure.self) {
            try await ChildProcess.run(
                testID: "RunLoopKitTestingTests.VirtualTimeTraitFixtures/noSuchTest()",
                variable: VirtualTimeTrait.childVariable)
        }
        #expect(failure?.report.contains("found no test") == true, "\(String(describing: failure))")
    }

    @Test("swift-testing's filter gets the test's id literally")
    func filterIsLiteral() {
        #expect(ChildProcess.regexEscaped("A.b(x:)/F.swift:1:2") == #"A\.b\(x:\)/F\.swift:1:2"#)
    }
}

/// Runs only in a child process started for it (the environment names it).
private func inItsChild(_ name: String) -> Bool {
    ProcessInfo.processInfo.environment[VirtualTimeTrait.childVariable]?.hasSuffix("/\(name)") == true
}

@Suite(.virtualTime(timeLimit: .seconds(30), resolution: .seconds(1)))
struct VirtualTimeTraitFixtures {
    @Test(.enabled(if: inItsChild("recordsItsProcess()")))
    func recordsItsProcess() async throws {
        #expect(ProcessInfo.processInfo.environment[VirtualTimeTrait.childVariable] != nil)
        let handle = try #require(VirtualTimeTrait.currentLoop)
        try await handle.sleep(for: .seconds(30))
        #expect(handle.timeSource.now() == Instant.zero + .seconds(30))
    }

    @Test(.enabled(if: inItsChild("deadlocks()")))
    func deadlocks() async throws {
        try await Task.sleep(for: .seconds(5))
        let (stream, _) = AsyncStream.makeStream(of: Int.self)
        for await _ in stream {}
    }

    @Test(.enabled(if: inItsChild("leavesASleeper()")))
    func leavesASleeper() async throws {
        Task { try await Task.sleep(for: .seconds(5)) }
    }
}

@Suite(.virtualTime(timeLimit: .seconds(30), runawayLimits: RunLoop.RunawayLimits(jobs: 3_000)))
struct VirtualTimeRunawayFixtures {
    @Test(.enabled(if: inItsChild("yieldsUntilCancelled()")))
    func yieldsUntilCancelled() async {
        while !Task.isCancelled { await Task.yield() }
    }
}
