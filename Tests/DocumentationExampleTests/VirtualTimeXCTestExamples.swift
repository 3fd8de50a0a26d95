import RunLoopKit
import RunLoopKitTesting
import XCTest

// The example of RunLoopKitTesting's XCTest helper, run by XCTest as written.

final class CountdownTests: XCTestCase {
    func testCountdown() throws {
        let slept = try runWithVirtualTime { loop in
            try await loop.sleep(for: .seconds(600))
            return loop.timeSource.now()
        }
        XCTAssertEqual(slept, Instant.zero + .seconds(600))
    }
}
