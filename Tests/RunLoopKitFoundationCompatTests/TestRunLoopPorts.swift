import RunLoopKitFoundationCompat
import Testing

/// What swift-corelibs-foundation's Tests/Foundation/TestRunLoop.swift checks, in Foundation's names
/// against RunLoopKitFoundationCompat, on real time with the original's tolerances. The cases that
/// need the process's main thread (`RunLoop.main`, the main dispatch queue) run in
/// `foundation-compat-probe` (MainThreadPortTests).
@Suite("Foundation's TestRunLoop, in Foundation's names")
struct TestRunLoopPorts {
    @Test("test_constants: the modes' raw values are CoreFoundation's")
    func constants() {
        #expect(RunLoop.Mode.common.rawValue == "kCFRunLoopCommonModes")
        #expect(RunLoop.Mode.default.rawValue == "kCFRunLoopDefaultMode")
        #expect(RunLoop.Mode.tracking.rawValue == "UITrackingRunLoopMode")
    }

    @Test("test_runLoopInit (this thread's half): RunLoop.current is equal and identical from call to call")
    func runLoopInit() {
        let current = RunLoop.current
        let again = RunLoop.current
        #expect(current == again)
        #expect(current === again)
        #expect(current.base === again.base)
    }

    @Test("test_runLoopRunMode: run(mode:before:) returns true after a 10 ms timer fired in the default mode")
    func runLoopRunMode() {
        let runLoop = RunLoop.current
        var modeInBlock: RunLoop.Mode?
        let timer = Timer.scheduledTimer(withTimeInterval: 0.01, repeats: false) { _ in
            modeInBlock = runLoop.currentMode
        }
        runLoop.add(timer, forMode: .default)
        #expect(runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05)))
        #expect(modeInBlock == .default)
    }

    @Test("test_runLoopLimitDate: limitDate(forMode:) is a pending 1 s timer's fire date (±10 ms)")
    func runLoopLimitDate() throws {
        let runLoop = RunLoop.current
        let expected = Date(timeIntervalSinceNow: 1)
        let timer = Timer.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in }
        defer { timer.invalidate() }
        let limit = try #require(runLoop.limitDate(forMode: .default))
        #expect(abs(limit.timeIntervalSince(expected)) < 0.01)
    }

    @Test("test_runLoopPoll: run(until: now) returns well within 0.5 s")
    func runLoopPoll() {
        let start = Date()
        RunLoop.current.run(until: Date())
        #expect(Date().timeIntervalSince(start) < 0.5)
    }

    @Test("test_commonModes: a timer added to the common modes fires in the default mode")
    func commonModes() {
        var fired = false
        let timer = Timer(timeInterval: 0.2, repeats: false) { _ in fired = true }
        RunLoop.current.add(timer, forMode: .common)
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 10))
        #expect(fired)
    }

    @Test(
        "test_addingRemovingPorts: a port is told once per mode it is added to and when it is taken out, and goes away with its owner"
    )
    func addingRemovingPorts() {
        final class RecordingPort: Port {
            var scheduledModes: [RunLoop.Mode] = []
            let onDeinit: () -> Void
            init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
            deinit { onDeinit() }
            override func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) { scheduledModes.append(mode) }
            override func remove(from runLoop: RunLoop, forMode mode: RunLoop.Mode) {
                scheduledModes.removeAll { $0 == mode }
            }
        }
        let runLoop = RunLoop.current
        var deallocated = false
        do {
            let port = RecordingPort { deallocated = true }
            let custom = RunLoop.Mode(rawValue: "Custom")
            #expect(port.scheduledModes == [])
            runLoop.add(port, forMode: .default)
            runLoop.add(port, forMode: .default)
            #expect(port.scheduledModes == [.default])
            runLoop.add(port, forMode: custom)
            #expect(port.scheduledModes == [.default, custom])
            runLoop.remove(port, forMode: custom)
            runLoop.remove(port, forMode: custom)
            #expect(port.scheduledModes == [.default])
            // Through a new lookup of the current loop: the loop object that has the port is kept.
            RunLoop.current.add(port, forMode: custom)
            #expect(port.scheduledModes == [.default, custom])
            port.invalidate()
            #expect(!port.isValid)
        }
        #expect(deallocated)
    }

    @Test("perform(_:) and perform(inModes:block:) run in a later pass of their modes only")
    func performRunsInItsModes() {
        let runLoop = RunLoop.current
        let modal = RunLoop.Mode("modal")
        var ran: [String] = []
        runLoop.perform { ran.append("default") }
        runLoop.perform(inModes: [modal]) { ran.append("modal") }
        #expect(ran.isEmpty)
        #expect(runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.1)))
        #expect(ran == ["default"])
        #expect(runLoop.run(mode: modal, before: Date(timeIntervalSinceNow: 0.1)))
        #expect(ran == ["default", "modal"])
        #expect(!runLoop.run(mode: modal, before: Date(timeIntervalSinceNow: 0.1)))
        #expect(!runLoop.run(mode: .common, before: Date(timeIntervalSinceNow: 0.1)))
    }
}
