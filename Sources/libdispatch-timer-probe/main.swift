import Dispatch
import Glibc
import RunLoopKit
import Synchronization
import TimeUnits

// swift-corelibs-libdispatch's main-queue timer tests (tests/dispatch_*.c), in RunLoopKit's words:
// each original's main-queue timers become DispatchTimers delivered onto RunLoop.main, which this
// process runs on its main thread; the original's own checks are printed, one line each, and the
// tests (LibdispatchTimerPortTests) compare them. One scenario per process:
//
//   timer      dispatch_timer.c: five one-shots on a global queue and a 1 s timer on the main loop
//              that cancels itself at its third tick; only timers due before then fire first
//   set-time   dispatch_timer_set_time.c: a 1 s timer rescheduled to 100 ms from its first handler
//              reaches 15 ticks in well under 10 s
//   bit31      dispatch_timer_bit31.c: a deadline and interval of 2^31 ns fire after 2.15 s, not 4
//   bit63      dispatch_timer_bit63.c: an interval beyond Int64 (2^63 + 1 ns) fires once in 1 s
//   suspend    dispatch_suspend_timer.c: a 1 s timer suspended for 3 s gets the ticks it missed
//              as one event on resume
//   after      dispatch_after.c: one-shots after 6 s, then 2 s, then 0 s land within ±0.5 s
//   after-main-queue  dispatch_after.c with DispatchQueue.main.asyncAfter, drained by RunLoop.main
let loop = RunLoop.main
let handle = loop.handle
let start = TimeSource.system.now()

/// Seconds since the process started its scenario.
func elapsed() -> Double {
    Nanoseconds.seconds((TimeSource.system.now() - start).nanoseconds)
}

/// Runs the main loop until a handler stops it (at most 30 s) and prints how the run ended.
@MainActor func runMainLoop() {
    print("main loop: \(loop.run(mode: .default, until: loop.now + .seconds(30)))")
}

@MainActor func timerCase() {
    let finished = Atomic<Bool>(false)
    let globalFires = Mutex<[Int]>([])
    let oneShots = (1...5).map { number in
        let timer = DispatchTimer(queue: .global()) { _ in
            if !finished.load(ordering: .acquiring) { globalFires.withLock { $0.append(number) } }
        }
        timer.schedule(deadline: .after(.seconds(number) + .milliseconds(100)))
        timer.resume()
        return timer
    }
    var ticks = 0
    var mainTimer: DispatchTimer?
    mainTimer = DispatchTimer(runLoop: loop) { _ in
        ticks += 1
        guard ticks >= 3 else { return }
        mainTimer?.schedule(deadline: .now)
        mainTimer?.cancel {
            finished.store(true, ordering: .releasing)
            handle.stop()
        }
    }
    mainTimer?.schedule(deadline: .now, repeating: .seconds(1))
    mainTimer?.resume()
    runMainLoop()
    print("main timer ticks: \(ticks)")
    print(
        "global one-shots fired before the end, all numbered below 3: \(globalFires.withLock { $0.allSatisfy { $0 < 3 } })"
    )
    for timer in oneShots { timer.cancel() }
}

@MainActor func setTimeCase() {
    var ticks = 0
    var timer: DispatchTimer?
    timer = DispatchTimer(runLoop: loop) { _ in
        ticks += 1
        if ticks >= 15 {
            timer?.cancel { handle.stop() }
        } else if ticks == 1 {
            timer?.schedule(deadline: .now, repeating: .milliseconds(100))
        }
    }
    timer?.schedule(deadline: .after(.seconds(1)), repeating: .seconds(1))
    timer?.resume()
    runMainLoop()
    print("ticks: \(ticks), total duration under 10 s: \(elapsed() < 10)")
}

@MainActor func bit31Case() {
    let bit31 = Duration.nanoseconds(0x8000_0000)
    let firedAfter = Mutex<Double>(0)
    var timer: DispatchTimer?
    timer = DispatchTimer(runLoop: loop) { _ in
        timer?.cancel {
            firedAfter.withLock { $0 = elapsed() }
            handle.stop()
        }
    }
    timer?.schedule(deadline: .after(bit31), repeating: bit31)
    timer?.resume()
    runMainLoop()
    let seconds = firedAfter.withLock { $0 }
    print("finished after 2^31 ns and under 4 s: \(seconds >= 2.147 && seconds < 4)")
}

@MainActor func bit63Case() {
    var ticks = 0
    let timer = DispatchTimer(runLoop: loop) { _ in ticks += 1 }
    timer.schedule(deadline: .now, repeating: .nanoseconds(Int64.max) + .nanoseconds(2))
    timer.resume()
    let stopper = DispatchTimer(runLoop: loop) { _ in handle.stop() }
    stopper.schedule(deadline: .after(.seconds(1)))
    stopper.resume()
    runMainLoop()
    print("ticks in 1 s: \(ticks)")
    timer.cancel()
}

@MainActor func suspendCase() {
    var ticks = 0
    var coalescedTicks = 0
    var tweedledee: DispatchTimer?
    tweedledee = DispatchTimer(runLoop: loop) { event in
        ticks += 1
        coalescedTicks += event.ticks
        if ticks == 10 { tweedledee?.cancel() }
    }
    tweedledee?.schedule(deadline: .after(.seconds(1)), repeating: .seconds(1))
    tweedledee?.resume()
    var calls = 0
    var tweedledum: DispatchTimer?
    tweedledum = DispatchTimer(runLoop: loop) { _ in
        calls += 1
        switch calls {
        case 1:
            tweedledee?.suspend()
        case 2:
            print("at resume: ticks \(ticks), with missed ticks \(coalescedTicks)")
            tweedledee?.resume()
        default:
            print("at the end: ticks \(ticks), with missed ticks \(coalescedTicks)")
            tweedledum?.cancel { handle.stop() }
        }
    }
    tweedledum?.schedule(deadline: .after(.milliseconds(3_500)), repeating: .seconds(3))
    tweedledum?.resume()
    runMainLoop()
    tweedledee?.cancel()
}

/// dispatch_after.c's chain: 6 s, then 2 s, then 0 s, each checked within ±0.5 s of its delay.
@MainActor func afterCase(schedule: @escaping (Duration, @escaping () -> Void) -> Void) {
    var lines: [String] = []
    func check(_ delay: Double, since scheduled: Double) {
        let late = elapsed() - scheduled - delay
        lines.append("after \(delay) s: within ±0.5 s: \(late >= -0.5 && late < 0.5)")
    }
    let first = elapsed()
    schedule(.seconds(6)) {
        check(6, since: first)
        let second = elapsed()
        schedule(.seconds(2)) {
            check(2, since: second)
            let third = elapsed()
            schedule(.zero) {
                check(0, since: third)
                handle.stop()
            }
        }
    }
    runMainLoop()
    for line in lines { print(line) }
}

/// Timers kept until the scenario ends (a DispatchTimer that is released is cancelled).
var oneShotTimers: [DispatchTimer] = []

switch CommandLine.arguments.dropFirst().first {
case "timer": timerCase()
case "set-time": setTimeCase()
case "bit31": bit31Case()
case "bit63": bit63Case()
case "suspend": suspendCase()
case "after":
    afterCase { delay, body in
        let timer = DispatchTimer(runLoop: loop) { _ in body() }
        timer.schedule(deadline: .after(delay))
        timer.resume()
        oneShotTimers.append(timer)
    }
case "after-main-queue":
    afterCase { delay, body in
        DispatchQueue.main.asyncAfter(deadline: .now() + .nanoseconds(Int(delay.nanoseconds))) {
            MainActor.assumeIsolated { body() }
        }
    }
default:
    print("usage: libdispatch-timer-probe timer|set-time|bit31|bit63|suspend|after|after-main-queue")
    exit(2)
}
