import RunLoopKit
import RunLoopKitTesting
import XCTest

/// XCTest's helper takes the loop's runaway limits, and tears a failed test down.
final class RunWithVirtualTimeTests: XCTestCase {
    func testRunawayLimitsReachTheLoop() {
        let limits = RunLoopKit.RunLoop.RunawayLimits(jobs: 1_000)
        XCTAssertThrowsError(
            try runWithVirtualTime(runawayLimits: limits) { _ in
                while !Task.isCancelled { await Task.yield() }
            }
        ) { error in
            let error = error as? VirtualTimeError
            XCTAssertEqual(error?.kind, .runaway)
            let message = error?.message ?? ""
            let jobs = message.firstMatch(of: /(\d+) executor jobs in/).flatMap { Int($0.1) }
            XCTAssertTrue(jobs.map { (1_000...2_025).contains($0) } == true, message)
            XCTAssertTrue(message.contains("the test's task was cancelled and it ended"), message)
        }
    }
}
