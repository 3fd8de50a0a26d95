import TestSupport
import Testing

/// The cases of Foundation's TestRunLoop.swift that need the process's main thread, run in a child
/// process (`foundation-compat-probe`), whose main thread runs `RunLoop.main`.
@Suite("Foundation's TestRunLoop on the main thread, in Foundation's names", .tags(.process))
struct MainThreadPortTests {
    private func probe(_ scenario: String) throws -> [String] {
        try #require(BuiltProduct.isBuilt("foundation-compat-probe"), "build foundation-compat-probe first")
        let outcome = try ChildProcess.run(
            BuiltProduct.path("foundation-compat-probe"), [scenario], timeout: .seconds(60))
        try #require(outcome.status == 0, "\(outcome)")
        return outcome.output.split(separator: "\n").map(String.init)
    }

    @Test(
        "test_runLoopInit: main and current are equal and identical from call to call, and the same on the main thread")
    func runLoopInit() throws {
        #expect(
            try probe("init") == [
                "main equal and identical: true",
                "current equal and identical: true",
                "main is current: true",
            ])
    }

    @Test("test_mainDispatchQueueCallout: the default mode drains the main queue twice, then a timer still fires")
    func mainDispatchQueueCallout() throws {
        #expect(
            try probe("main-queue") == [
                "first main-queue block ran: true",
                "second main-queue block ran: true",
                "timer fired: true",
            ])
    }
}
