import RunLoopKitFoundationCompat
import Testing

// This file imports nothing else: GCD code ported from Darwin, where `import Foundation` brings
// Dispatch along, compiles with only its import changed.

/// Dispatch comes with `import RunLoopKitFoundationCompat`, as it comes with Foundation on Linux.
@Suite("Dispatch through the import")
struct DispatchThroughTheImportTests {
    @Test("DispatchQueue, DispatchTime and DispatchSemaphore are visible with only this module imported")
    func dispatchIsReExported() {
        let queue = DispatchQueue(label: "ported")
        let done = DispatchSemaphore(value: 0)
        let deadline: DispatchTime = .now() + .milliseconds(1)
        queue.asyncAfter(deadline: deadline) { done.signal() }
        #expect(done.wait(timeout: .now() + 30) == .success)
    }
}
