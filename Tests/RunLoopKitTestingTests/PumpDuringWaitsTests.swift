import RunLoopKit
import RunLoopKitTesting
import TestSupport
import XCTest

/// XCTest's waits spin Foundation's run loop; the library serves RunLoopKit's loop in them.
final class PumpDuringWaitsTests: XCTestCase {
    /// Foundation's `TestRunLoop.test_commonModes`, in RunLoopKit's names, with nothing added: the
    /// library's observer serves the default mode in every wait.
    func testCommonModesTimerFiresInAnExpectationWait() {
        let loop = RunLoopKit.RunLoop.current
        let done = expectation(description: "The timer has fired")
        let timer = RunLoopKit.Timer(fireAt: loop.now + .seconds(1), interval: .zero, repeats: false) { _ in
            done.fulfill()
        }
        loop.add(timer, forMode: .common)
        XCTAssertEqual(XCTWaiter.wait(for: [done], timeout: 10), .completed)
    }

    /// A mode the library does not serve: its timer waits out a wait, until the test asks for it.
    func testAnotherModeIsServedWhenAsked() {
        let loop = RunLoopKit.RunLoop.current
        let modal = RunLoopKit.RunLoop.Mode("modal")
        var fires = 0
        var onFire: () -> Void = {}
        let timer = RunLoopKit.Timer(fireAt: loop.now + .milliseconds(20), interval: .zero, repeats: false) { _ in
            fires += 1
            onFire()
        }
        loop.add(timer, forMode: modal)
        let nothing = expectation(description: "nothing")
        nothing.isInverted = true
        XCTAssertEqual(XCTWaiter.wait(for: [nothing], timeout: 0.2), .completed)
        XCTAssertEqual(fires, 0)
        pumpRunLoopKitDuringWaits(mode: modal)
        let done = expectation(description: "The modal timer has fired")
        onFire = { done.fulfill() }
        XCTAssertEqual(XCTWaiter.wait(for: [done], timeout: 10), .completed)
        XCTAssertEqual(fires, 1)
    }
}
