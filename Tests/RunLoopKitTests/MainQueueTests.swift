import TestSupport
import Testing

/// C-M12 and C-M8's main-thread exception on `RunLoop.main`, run in a child process (`main-queue-probe`)
/// because only a process's main thread can drain libdispatch's main queue.
@Suite("Main run loop and the main queue")
struct MainQueueTests {
    private func probe(_ scenario: String) throws -> [String] {
        try #require(BuiltProduct.isBuilt("main-queue-probe"), "build main-queue-probe first")
        let outcome = try ChildProcess.run(BuiltProduct.path("main-queue-probe"), [scenario], timeout: .seconds(60))
        try #require(outcome.status == 0, "\(outcome)")
        return outcome.output.split(separator: "\n").map(String.init)
    }

    @Test("C-M12: main-queue blocks wait while RunLoop.main runs a mode that is not common, and run in common modes")
    func mainQueueBlocksFollowCommonModes() throws {
        #expect(
            try probe("async") == [
                "modal run: stopped, ran []",
                "default run: handledSource, ran [\"first\"]",
                "modal run: stopped, ran [\"first\"]",
                "modal made common: handledSource, ran [\"first\", \"second\"]",
            ])
    }

    @Test("C-M12: a main-queue dispatch timer pauses in a mode that is not common and catches up in one coalesced call")
    func mainQueueTimerPausesOutsideCommonModes() throws {
        #expect(
            try probe("timer") == [
                "modal run: stopped, calls 0",
                "default run: handledSource, calls 1, ticks at least 2: true",
            ])
    }

    @Test("C-M8: a common-mode run of RunLoop.main with nothing scheduled waits for its limit; other loops finish")
    func mainLoopCommonModesAreNeverEmpty() throws {
        #expect(
            try probe("empty") == [
                "main loop: timedOut",
                "other loop: finished",
                "main loop, mode not common: finished",
            ])
    }

    @Test("C-M12: RunLoop.main made on a paused TimeControl drains the main queue while its timers wait")
    func mainLoopOnAControlledClock() throws {
        #expect(
            try probe("paused") == [
                "main loop on the controlled clock: true, paused: true",
                "paused run: handledSource, ran [\"block\"], timer fires 1",
            ])
    }

    @Test(
        "C-X1: a @MainActor job and a @MainActor sleep on RunLoop.main wait in a modal mode; assumeIsolated in a callout"
    )
    func mainActorFollowsCommonModes() throws {
        #expect(
            try probe("mainactor") == [
                "modal run: stopped, ran []",
                "default run: handledSource, ran [\"job\"]",
                "assumeIsolated in a timer callout: calls 1",
                "modal run: stopped, ran [\"job\"]",
                "default run: ran [\"job\", \"slept\"]",
            ])
    }
}
