import Dispatch
import Glibc
import RunLoopKit

// Runs RunLoop.main on the process's main thread through the main-queue cases of C-M8 and C-M12 and
// prints one line per observation; the main-queue tests run it in a child process, because only a
// process's main thread can drain libdispatch's main queue.
//
//   async    main-queue blocks wait in a mode that is not common, run in a common one, and run in
//            the custom mode once it is made common
//   timer    a main-queue dispatch timer pauses in a mode that is not common and catches up after
//   empty    a common-mode run with nothing scheduled waits for its limit instead of finishing
//   paused   RunLoop.main made on a paused TimeControl still drains the main queue, and its timers wait
//   mainactor  a @MainActor job waits in a mode that is not common and runs in a common one (C-X1);
//            MainActor.assumeIsolated works in a timer callout; a @MainActor task's default-mode sleep
//            on the main loop waits while a mode that is not common runs
let modal = RunLoop.Mode("modal")
let scenario = CommandLine.arguments.dropFirst().first
let time = TimeControl(base: .system)
let loop = scenario == "paused" ? try RunLoop.makeMain(timeSource: .controlled(time)) : RunLoop.main

/// What the main-queue work did; only the main thread touches it.
@MainActor final class Record {
    var ran: [String] = []
    var calls = 0
    var ticks: UInt = 0
}

/// Runs `mode` until a one-shot timer in it stops the run after `duration`.
@MainActor func hold(_ mode: RunLoop.Mode, for duration: Duration) -> RunLoop.RunResult {
    let stopper = Timer(fireAt: loop.now + duration, interval: .zero, repeats: false) { _ in loop.stop() }
    loop.add(stopper, forMode: mode)
    defer { stopper.invalidate() }
    return loop.run(mode: mode, until: loop.now + .seconds(60))
}

@MainActor func asyncCase() {
    let record = Record()
    DispatchQueue.main.async { record.ran.append("first") }
    print("modal run: \(hold(modal, for: .milliseconds(50))), ran \(record.ran)")
    print(
        "default run: \(loop.run(mode: .default, for: .seconds(60), returnAfterSourceHandled: true)), ran \(record.ran)"
    )
    DispatchQueue.main.async { record.ran.append("second") }
    print("modal run: \(hold(modal, for: .milliseconds(50))), ran \(record.ran)")
    loop.addCommonMode(modal)
    print(
        "modal made common: \(loop.run(mode: modal, for: .seconds(60), returnAfterSourceHandled: true)), ran \(record.ran)"
    )
}

@MainActor func timerCase() {
    let record = Record()
    let source = DispatchSource.makeTimerSource(queue: .main)
    source.schedule(deadline: .now() + .milliseconds(10), repeating: .milliseconds(10))
    source.setEventHandler {
        MainActor.assumeIsolated {
            record.calls += 1
            record.ticks += source.data
        }
    }
    source.activate()
    print("modal run: \(hold(modal, for: .milliseconds(100))), calls \(record.calls)")
    let result = loop.run(mode: .default, for: .seconds(60), returnAfterSourceHandled: true)
    print("default run: \(result), calls \(record.calls), ticks at least 2: \(record.ticks >= 2)")
    source.cancel()
}

@MainActor func emptyCase() {
    print("main loop: \(loop.run(mode: .default, for: .milliseconds(20)))")
    print("other loop: \(RunLoop().run(mode: .default, for: .milliseconds(20)))")
    print("main loop, mode not common: \(loop.run(mode: modal, for: .milliseconds(20)))")
}

@MainActor func pausedCase() {
    let record = Record()
    time.isPaused = true
    let timer = Timer(fireAt: loop.now, interval: .seconds(1), repeats: true) { _ in record.calls += 1 }
    loop.add(timer, forMode: .default)
    loop.run(mode: .default, until: .zero)  // the timer's first fire, due at once
    DispatchQueue.main.async { record.ran.append("block") }
    let result = loop.run(mode: .default, for: .seconds(60), returnAfterSourceHandled: true)
    let onTheControl = if case .controlled(let control) = RunLoop.main.timeSource { control === time } else { false }
    print("main loop on the controlled clock: \(onTheControl), paused: \(time.isPaused)")
    print("paused run: \(result), ran \(record.ran), timer fires \(record.calls)")
}

@MainActor func mainActorCase() {
    let record = Record()
    Task { @MainActor in record.ran.append("job") }
    print("modal run: \(hold(modal, for: .milliseconds(50))), ran \(record.ran)")
    print(
        "default run: \(loop.run(mode: .default, for: .seconds(60), returnAfterSourceHandled: true)), ran \(record.ran)"
    )
    let timer = Timer(fireAt: loop.now, interval: .zero, repeats: false) { _ in
        MainActor.assumeIsolated { record.calls += 1 }
    }
    loop.add(timer, forMode: .default)
    loop.run(mode: .default, until: loop.now + .milliseconds(20))
    print("assumeIsolated in a timer callout: calls \(record.calls)")
    let handle = loop.handle
    Task { @MainActor in
        try await handle.sleep(for: .milliseconds(10), inModes: [.default])
        record.ran.append("slept")
    }
    loop.run(mode: .default, until: .zero)  // the task starts and adds its sleep
    print("modal run: \(hold(modal, for: .milliseconds(50))), ran \(record.ran)")
    loop.run(mode: .default, for: .milliseconds(20))
    print("default run: ran \(record.ran)")
}

switch scenario {
case "async": asyncCase()
case "timer": timerCase()
case "empty": emptyCase()
case "paused": pausedCase()
case "mainactor": mainActorCase()
default:
    print("usage: main-queue-probe async|timer|empty|paused|mainactor")
    exit(64)
}
exit(0)
