import Foundation
import RunLoopKitFoundationCompat

import class RunLoopKitFoundationCompat.RunLoop
import class RunLoopKitFoundationCompat.Timer

// Porting.md's file that imports Foundation as well: these imports, then Foundation-style code.

private func importedWithFoundationExample() {
    let timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in
        print(ProcessInfo.processInfo.processName)
    }
    RunLoop.current.run(until: Date(timeIntervalSinceNow: 2))
    timer.invalidate()
}

// Porting.md's test-target aliases. Here they sit in a namespace, since this target's other
// files use RunLoopKit's own names; a test target puts them at its top level.
private enum TestTargetAliases {
    typealias RunLoop = RunLoopKitFoundationCompat.RunLoop
    typealias Timer = RunLoopKitFoundationCompat.Timer
}
