import RunLoopKitFoundationCompat

// The cases of swift-corelibs-foundation's Tests/Foundation/TestRunLoop.swift that need the
// process's main thread, in Foundation's names against RunLoopKitFoundationCompat; it prints each
// check, one line each, for MainThreadPortTests. One scenario per process:
//
//   init        test_runLoopInit: RunLoop.main and RunLoop.current are equal and identical from call
//               to call, and on the main thread they are the same loop
//   main-queue  test_mainDispatchQueueCallout: running the default mode drains DispatchQueue.main, twice,
//               and afterwards a timer still fires (no stale main-queue state ends the run early)
//
// and the seeds' delayed work on the main thread (seeds 002, 003, G6), in the same names:
//
//   dispatch-after  dispatch_after on the main queue runs while a scroll view is dragged (the tracking
//               mode is common, as UIKit makes it) and cannot be taken back; a delayed perform, a
//               default-mode run loop timer, waits for the drag to end and can be cancelled

@MainActor func initCase() {
    let main = RunLoop.main
    let current = RunLoop.current
    let mainAgain = RunLoop.main
    let currentAgain = RunLoop.current
    print("main equal and identical: \(main == mainAgain && main === mainAgain)")
    print("current equal and identical: \(current == currentAgain && current === currentAgain)")
    print("main is current: \(main == current)")
}

/// Whether the main queue ran its block by the time the main loop's default mode returned.
@MainActor final class Flags {
    var asyncExecuted = false
    var timerFired = false
}

@MainActor func mainQueueCase() {
    let runLoop = RunLoop.current
    let flags = Flags()
    DispatchQueue.main.async { MainActor.assumeIsolated { flags.asyncExecuted = true } }
    _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 2))
    print("first main-queue block ran: \(flags.asyncExecuted)")
    flags.asyncExecuted = false
    DispatchQueue.main.async { MainActor.assumeIsolated { flags.asyncExecuted = true } }
    _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 2))
    print("second main-queue block ran: \(flags.asyncExecuted)")
    let timer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: false) { _ in flags.timerFired = true }
    runLoop.add(timer, forMode: .default)
    _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 2))
    print("timer fired: \(flags.timerFired)")
}

/// What the delayed work did, in order.
@MainActor final class Ran {
    var work: [String] = []
}

/// The seeds' view controller, target of its delayed performs.
final class Screen {}

/// Runs `mode` of the main loop until `seconds` have passed, as a drag (the tracking mode) or the
/// idle default mode does.
@MainActor func hold(_ mode: RunLoop.Mode, for seconds: TimeInterval) {
    let end = Date(timeIntervalSinceNow: seconds)
    while Date() < end { _ = RunLoop.main.run(mode: mode, before: end) }
}

@MainActor func dispatchAfterCase() {
    let runLoop = RunLoop.main
    let ran = Ran()
    let screen = Screen()
    runLoop.base.addCommonMode(.tracking)  // as UIKit makes it on the main run loop
    // seed 003: dispatch_after(popTime, dispatch_get_main_queue(), ^{ [self someMethod]; })
    DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) {
        MainActor.assumeIsolated { ran.work.append("dispatch_after") }
    }
    // seed 003: performSelector:withObject:afterDelay:, a timer in the default mode
    runLoop.base.perform(after: .milliseconds(50), target: screen) {
        MainActor.assumeIsolated { ran.work.append("perform after delay") }
    }
    hold(.tracking, for: 0.3)
    print("while dragging: \(ran.work)")
    hold(.default, for: 0.1)
    print("after the drag: \(ran.work)")
    // seed 002: a perform can be cancelled with cancelPreviousPerformRequestsWithTarget:; dispatch_after cannot.
    ran.work = []
    DispatchQueue.main.asyncAfter(deadline: .now() + 0.05) {
        MainActor.assumeIsolated { ran.work.append("dispatch_after") }
    }
    runLoop.base.perform(after: .milliseconds(50), target: screen) {
        MainActor.assumeIsolated { ran.work.append("perform after delay") }
    }
    runLoop.base.cancelPerformRequests(target: screen)
    hold(.default, for: 0.3)
    print("after cancelling the performs: \(ran.work)")
}

switch CommandLine.arguments.dropFirst().first {
case "init": initCase()
case "main-queue": mainQueueCase()
case "dispatch-after": dispatchAfterCase()
default: print("usage: foundation-compat-probe init|main-queue|dispatch-after")
}
