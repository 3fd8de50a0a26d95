import Foundation
import RunLoopKit
import XCTest

/// Serves RunLoopKit's loop in XCTest's waits, in every test case of a process that links this
/// library: XCTest's `wait(for:timeout:)` and `waitForExpectations(timeout:)` spin Foundation's
/// run loop, in its default mode, in slices of at most 100 ms; while a test case runs, a
/// Foundation timer there runs, every millisecond, one pass of the waiting thread's RunLoopKit loop
/// (`RunLoop.current`, read at each pass) in its default mode that does not sleep. So a
/// RunLoopKit timer that fulfils an expectation fires during the wait, up to a millisecond late,
/// as Foundation's own would.
///
/// It is registered as an `XCTestObservation` when the executable starts (the library's C part
/// calls ``testingLibraryDidLoad()``); outside XCTest's waits nothing changes. For another mode,
/// another loop or another interval, a test calls `pumpRunLoopKitDuringWaits(_:mode:interval:)`.
final class XCTestWaitPump: NSObject, XCTestObservation, @unchecked Sendable {
    // Only XCTest's thread calls the observation methods, one test case after another.
    static let shared = XCTestWaitPump()
    private var pump: Foundation.Timer?

    func testCaseWillStart(_ testCase: XCTestCase) {
        let pump = Foundation.Timer(timeInterval: 0.001, repeats: true) { _ in
            RunLoopKit.RunLoop.current.run(mode: .default, until: .zero)
        }
        Foundation.RunLoop.current.add(pump, forMode: .default)
        self.pump = pump
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        pump?.invalidate()
        pump = nil
    }
}

/// Called by the library's C part as the executable starts: registers ``XCTestWaitPump``.
@_cdecl("runloopkit_testing_library_did_load")
package func testingLibraryDidLoad() {
    XCTestObservationCenter.shared.addTestObserver(XCTestWaitPump.shared)
}
