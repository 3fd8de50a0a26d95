import RunLoopKit
import RunLoopKitTesting
import TestSupport
import XCTest

/// XCTest's waits spin Foundation's run loop; with the pump, RunLoopKit's timers fire in them.
final class PumpDuringWaitsTests: XCTestCase {
    /// Foundation's `TestRunLoop.test_commonModes`, with RunLoopKit's loop and the pump.
    func testCommonModesTimerFiresInAnExpectationWait() {
        pumpRunLoopKitDuringWaits()
        let loop = RunLoopKit.RunLoop.current
        let done = expectation(description: "The timer has fired")
        let timer = RunLoopKit.Timer(fireAt: loop.now + .seconds(1), interval: .zero, repeats: false) { _ in
            done.fulfill()
        }
        loop.add(timer, forMode: .common)
        XCTAssertEqual(XCTWaiter.wait(for: [done], timeout: 10), .completed)
    }
}
