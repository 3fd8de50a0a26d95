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
