import Testing
@testable import RunLoopKit
