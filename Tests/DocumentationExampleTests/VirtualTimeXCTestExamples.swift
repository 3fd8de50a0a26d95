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

// The example of pumpRunLoopKitDuringWaits(), run by XCTest as written, in RunLoopKit's names.
final class PumpExampleTests: XCTestCase {
    func testFiresDuringAWait() {
        let modal = RunLoopKit.RunLoop.Mode("modal")
        pumpRunLoopKitDuringWaits(mode: modal)
        let loop = RunLoopKit.RunLoop.current
        let fired = expectation(description: "fired")
        let timer = RunLoopKit.Timer(fireAt: loop.now + .seconds(1), interval: .zero, repeats: false) { _ in
            fired.fulfill()
        }
        loop.add(timer, forMode: modal)
        XCTAssertEqual(XCTWaiter.wait(for: [fired], timeout: 10), .completed)
    }
}
