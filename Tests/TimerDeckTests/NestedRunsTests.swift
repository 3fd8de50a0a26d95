import RunLoopKit
import Testing

@testable import TimerDeck

@Suite("Nested runs: M, t, a drag and q in every order end exactly the runs they name (C-M11, M2)")
struct NestedRunsTests {
    @Test("M, then t inside the modal run, then M: both nested runs end, back to the default mode at depth 1")
    func modalEndsTheTrackingInsideIt() throws {
        let snapshots = try runHeadless(
            """
            key M
            key t
            snapshot
            key M
            wait 100ms
            snapshot
            """)
        try #require(snapshots.count == 2)
        #expect(snapshots[0].screen.contains("mode: tracking  depth: 3"))
        #expect(snapshots[1].screen.contains("mode: default  depth: 1"))
    }
}
