import Dispatch
import RunLoopKit

// The code examples of RunLoopKit's DocC articles (Sources/RunLoopKit/RunLoopKit.docc), one function
// each, as written there; compiled, and run by ArticleExampleTests where the article states a result.

/// GettingStarted.md, "Schedule a timer and run the loop"; returns the ticks.
func gettingStartedTimerExample() -> Int {
    let loop = RunLoop.current
    var ticks = 0
    let timer = Timer.scheduledTimer(withInterval: .milliseconds(100), repeats: true) { timer in
        ticks += 1
        if ticks == 3 { timer.invalidate() }
    }
    timer.tolerance = .milliseconds(10)
    loop.run(until: loop.now + .seconds(1))  // returns early: nothing is left in the mode
    return ticks
}

/// GettingStarted.md, "Test on a virtual clock"; returns the fire times.
func gettingStartedVirtualClockExample() -> [Instant] {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    var firedAt: [Instant] = []
    let timer = Timer(fireAt: loop.now + .milliseconds(100), interval: .milliseconds(100), repeats: true) { _ in
        firedAt.append(loop.now)
        if firedAt.count == 1 { clock.busy(.milliseconds(250)) }  // a slow callout
    }
    loop.add(timer, forMode: .default)
    loop.run(until: loop.now + .milliseconds(600))
    // firedAt: 100 ms, 400 ms, 500 ms, 600 ms — the ticks at 200 and 300 ms are skipped
    return firedAt
}

/// Modes.md; returns the run's result.
func modesExample() -> RunLoop.RunResult {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    loop.addCommonMode(.tracking)  // as UIKit does
    let everywhere = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { _ in }
    loop.add(everywhere, forMode: .common)  // keeps firing while tracking
    let paused = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { _ in }
    loop.add(paused, forMode: .default)  // waits while tracking
    let result = loop.run(mode: .tracking, until: loop.now + .seconds(3))  // only `everywhere` fires
    return result
}

/// Timers.md; returns the fire times.
func timersExample() -> [Instant] {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    var firedAt: [Instant] = []
    let early = Timer(fireAt: loop.now + .milliseconds(100), interval: .zero, repeats: false) { _ in
        firedAt.append(loop.now)
    }
    early.tolerance = .milliseconds(50)
    let late = Timer(fireAt: loop.now + .milliseconds(140), interval: .zero, repeats: false) { _ in
        firedAt.append(loop.now)
    }
    loop.add(early, forMode: .default)
    loop.add(late, forMode: .default)
    loop.run(until: loop.now + .seconds(1))  // one wake-up, at 140 ms, fires both
    return firedAt
}

/// DisplayLinks.md; returns the frames counted.
func displayLinksExample() -> Int {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    var frames = 0
    let link = DisplayLink { link in
        frames += 1
        if frames == 30 { link.invalidate() }  // half a second at 60 Hz
    }
    link.add(to: loop, forMode: .default)
    loop.run(until: loop.now + .seconds(1))
    return frames
}

/// DispatchTimers.md.
func dispatchTimersExample() {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    var ticks = 0
    let countdown = DispatchTimer(clock: .continuous, runLoop: loop) { event in ticks += event.ticks }
    countdown.schedule(deadline: .now, repeating: .seconds(1))
    countdown.resume()
    countdown.suspend()
    countdown.suspend()
    countdown.resume()  // still suspended: suspensions nest
    countdown.cancel()  // then released while suspended: safe here, a crash in libdispatch
}

/// Lifetimes.md.
enum LifetimesExample {
    final class Ticker {
        private var timer: Timer?
        private(set) var ticks = 0

        init(loop: RunLoop) {
            let timer = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { [weak self] _ in
                self?.ticks += 1
            }
            loop.add(timer, forMode: .default)
            self.timer = timer
        }

        deinit { timer?.invalidate() }  // runs: the timer does not hold the ticker
    }
}

/// TheMainRunLoop.md (main thread only, so not run here).
@MainActor func runMainLoop() {
    DispatchQueue.main.async { print("runs inside the main run loop's default mode") }
    let loop = RunLoop.main
    loop.run(mode: .default, until: loop.now + .milliseconds(100))
}
