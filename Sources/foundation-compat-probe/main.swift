import Dispatch
import RunLoopKitFoundationCompat

// The cases of swift-corelibs-foundation's Tests/Foundation/TestRunLoop.swift that need the
// process's main thread, in Foundation's names against RunLoopKitFoundationCompat; it prints each
// check, one line each, for MainThreadPortTests. One scenario per process:
//
//   init        test_runLoopInit: RunLoop.main and RunLoop.current are equal and identical from call
//               to call, and on the main thread they are the same loop
//   main-queue  test_mainDispatchQueueCallout: running the default mode drains DispatchQueue.main, twice,
//               and afterwards a timer still fires (no stale main-queue state ends the run early)

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

switch CommandLine.arguments.dropFirst().first {
case "init": initCase()
case "main-queue": mainQueueCase()
default: print("usage: foundation-compat-probe init|main-queue")
}
