import RunLoopKit
import RunLoopKitTesting
import Testing

// The examples of RunLoopKitTesting's swift-testing trait, run as written: each test with the
// trait runs again in a child process of its own, on virtual time.

@Suite("The virtual-time trait, as documented")
struct VirtualTimeTraitExamples {
    @Test(.virtualTime(resolution: .seconds(1))) func anHourAtOnce() async throws {
        try await Task.sleep(for: .seconds(3_600))
        #expect(VirtualTimeTrait.currentLoop?.timeSource.now() == Instant.zero + .seconds(3_600))
    }

    @Test(.virtualTime(resolution: .seconds(1))) func unstructuredTasksToo() async throws {
        let handle = try #require(VirtualTimeTrait.currentLoop)
        let child = Task {
            try await Task.sleep(for: .seconds(90))
            return handle.timeSource.now()
        }
        #expect(try await child.value == Instant.zero + .seconds(90))
    }

    @Test(.virtualTime(runawayLimits: RunLoop.RunawayLimits(jobs: 1_000)))
    func spinsBriefly() async {}
}
