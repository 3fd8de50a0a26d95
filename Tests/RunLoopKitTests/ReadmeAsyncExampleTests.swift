import Testing

@testable import RunLoopKit

/// The README's "Async" example, verbatim between the markers, run on a virtual clock.
@Suite("The README's async example")
struct ReadmeAsyncExampleTests {
    @Test("C-X1/C-X2/C-X3: the README's async example compiles and runs as it says")
    func readmeExampleRuns() {
        let (virtual, _) = makeVirtualLoop()
        let (downloads, log) = RunLoop.withCurrent(virtual) { () -> (Downloads, Transcript) in
            let log = Transcript()
            func print(_ items: Any...) { log.append(items.map { "\($0)" }.joined(separator: " ")) }
            // README: begin
            let loop = RunLoop.current
            loop.addCommonMode(.tracking)
            let handle = loop.handle  // Sendable: what async code holds
            let downloads = Downloads(loop: handle)

            Task(executorPreference: handle.taskExecutor) {  // runs on the loop's thread
                try await handle.sleep(for: .seconds(1), inModes: [.default])  // waits while the loop tracks
                await downloads.finish()
                for await tick in handle.ticks(every: .seconds(1)).prefix(3) {
                    print("tick", tick.fireDate, "missed", tick.missedTicks)  // CF's late-fire rule, C-T6
                }
            }
            loop.run(until: loop.now + .seconds(30))
            // README: end
            return (downloads, log)
        }
        #expect(downloads.assumeIsolated { $0.finished } == 1)
        #expect(log.entries == ["tick 2.000s missed 0", "tick 3.000s missed 0", "tick 4.000s missed 0"])
    }
}

// README: begin
/// State that lives on a run loop's thread, between its timer callouts.
actor Downloads {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    private(set) var finished = 0

    init(loop: RunLoop.Handle) { unownedExecutor = loop.executor.asUnownedSerialExecutor() }

    func finish() { finished += 1 }
}
// README: end
