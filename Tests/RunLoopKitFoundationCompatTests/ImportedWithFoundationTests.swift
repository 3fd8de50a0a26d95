import Foundation
import RunLoopKitFoundationCompat
import Testing

// A file that imports Foundation as well sees two `Timer`s and two `RunLoop`s; scoped imports of
// the two classes pick RunLoopKitFoundationCompat's for the whole file.
import class RunLoopKitFoundationCompat.RunLoop
import class RunLoopKitFoundationCompat.Timer

/// Foundation-style code in a file that also imports Foundation compiles and runs on RunLoopKit.
@Suite("Foundation-style code beside import Foundation")
struct ImportedWithFoundationTests {
    @Test("Timer and RunLoop are the layer's; Date, TimeInterval and the rest of Foundation are Foundation's")
    func namesResolveToTheLayer() {
        var fired = 0
        let timer = Timer.scheduledTimer(withTimeInterval: 0.01, repeats: false) { _ in fired += 1 }
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
        #expect(fired == 1)
        #expect(!timer.isValid)
        #expect(type(of: timer) == RunLoopKitFoundationCompat.Timer.self)
        #expect(ProcessInfo.processInfo.processIdentifier > 0)
    }
}
