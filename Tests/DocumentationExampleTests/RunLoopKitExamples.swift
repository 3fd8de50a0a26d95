import Dispatch
import Glibc
import RunLoopKit

import enum RunLoopKitFoundationCompat.DispatchAfter
import class RunLoopKitFoundationCompat.NamedTimers

// Every code example in RunLoopKit's documentation comments and DocC articles, compiled: each
// function holds one example as written there (ExampleCoverageTests checks that each is here), with
// what it takes from its context as parameters and the app functions it calls as stubs below.
// The examples are compiled, not run.

// MARK: Stubs for the app code the examples call

private final class View { func render(_ data: [UInt8]) {} }
private struct Countdown { func show(remaining: Int) {} }
private func load() -> [UInt8] { [] }
private func readKeys() {}
private func secondsLeft() -> Int { 0 }
private func showHint() {}
private func flushLogs() {}
private func sendHeartbeat() {}
private func expensiveWork() -> Int { 0 }
private func show(_ result: Int) {}
private func tick() {}
private func draw(frameAt: Instant, next: Instant) {}

// MARK: Documentation comments

private func loopBoundExample(view: View, loop: RunLoop, handle: RunLoop.Handle) {
    let render = LoopBound({ [weak view] (data: [UInt8]) in view?.render(data) }, on: loop)  // on the loop's thread
    DispatchQueue.global().async {
        let data = load()
        handle.perform { render.value(data) }  // back on the loop's thread
    }
}

private func observerExample(loop: RunLoop) {
    let observer = RunLoop.Observer(activities: [.beforeWaiting, .afterWaiting]) { _, activity in
        print(activity)
    }
    loop.add(observer, forMode: .common)
}

private func timeControlExample() {
    let time = TimeControl(base: .system)
    let loop = RunLoop(timeSource: .controlled(time))
    time.rate = (1, 4)  // quarter speed
    time.isPaused = true
    if let next = loop.nextFireDate(forMode: .default) {
        time.advance(to: next)  // the next timer fires, then time stands still again
    }
    time.sleepMachine(for: .seconds(30))  // a continuous-clock countdown jumps 30 s ahead
}

private func dispatchTimerExample(loop: RunLoop, countdown: Countdown) {
    let timer = DispatchTimer(clock: .continuous, runLoop: loop) { event in
        countdown.show(remaining: secondsLeft())  // on the loop's thread
    }
    timer.schedule(deadline: .now, repeating: .seconds(1))
    timer.resume()
}

private func fileDescriptorSourceExample(loop: RunLoop) {
    let keys = RunLoop.FileDescriptorSource(fileDescriptor: STDIN_FILENO) { readKeys() }
    loop.add(keys, forMode: .common)
}

private func timerExample() {
    let timer = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true) { timer in
        print("tick at", timer.fireDate)
    }
    timer.tolerance = .milliseconds(100)
    RunLoop.current.run(until: RunLoop.current.now + .seconds(5))
    timer.invalidate()
}

private func backgroundTimerExample() {
    let heartbeat = Timer.scheduledTimer(withInterval: .seconds(1), repeats: true) { _ in
        print("still here")
    }
    heartbeat.isBackground = true
    heartbeat.invalidate()
}

private func moveExample() {
    let loop = RunLoop.current
    let timer = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { _ in print("tick") }
    loop.add(timer, forMode: .common)
    loop.move(timer, from: .common, to: .default)  // now it pauses while tracking (M2)
}

private func modeExample(loop: RunLoop, timer: Timer) {
    loop.add(timer, forMode: .common)  // fires while tracking too
    let inspecting: RunLoop.Mode = "inspecting"  // a custom mode
    loop.add(timer, forMode: inspecting)
}

private func sourceExample(loop: RunLoop) {
    let source = RunLoop.Source { print("signalled") }
    loop.add(source, forMode: .default)
    let signal = source.signalHandle  // hand to another thread
    signal.signal()
}

private func systemCallErrorExample() {
    do {
        let loop = try RunLoop.make()
        loop.run()
    } catch {
        print(error)  // "eventfd failed: EMFILE (Too many open files)"
    }
}

private func instantExample() {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let deadline = loop.now + .seconds(5)
    loop.run(until: deadline)
}

private func performAfterExample(loop: RunLoop) {
    let request = loop.perform(after: .seconds(3)) { showHint() }
    request.cancel()
}

private final class Toast {
    func hideToast() {}

    func performAfterExample(loop: RunLoop) {
        let request = loop.perform(after: .seconds(2)) { [weak self] in self?.hideToast() }
        request.cancel()
    }
}

private func dispatchAfterExample() {
    DispatchAfter.schedule(after: .seconds(2)) { flushLogs() }  // no way to take it back
}

private func timerHandleExample(timer: Timer) {
    let handle = timer.handle
    DispatchQueue.global().async { handle.invalidate() }  // from any thread
}

private func signalSourceExample(loop: RunLoop, handle: @escaping (Int32) -> Void) throws {
    SignalSource.block([SIGINT, SIGTERM, SIGWINCH])
    let signals = try SignalSource(signals: [SIGINT, SIGTERM, SIGWINCH]) { signal in handle(signal) }
    loop.add(signals.source, forMode: .common)
}

private func namedTimersExample() {
    let timers = NamedTimers()
    timers.schedule("heartbeat", every: .seconds(2)) { sendHeartbeat() }
    timers.cancel("heartbeat")
}

private func loopHandleExample() {
    let handle = RunLoop.current.handle
    DispatchQueue.global().async {
        let result = expensiveWork()
        handle.perform(inModes: [.common]) { show(result) }
    }
}

private func runLoopExample() {
    let loop = RunLoop.current
    loop.addCommonMode(.tracking)
    let timer = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { _ in tick() }
    loop.add(timer, forMode: .common)
    loop.run()
}

private func virtualClockExample() {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    Timer.scheduledTimer(withInterval: .seconds(1), repeats: false, on: loop) { _ in clock.busy(.milliseconds(350)) }
    loop.run(until: loop.now + .seconds(2))  // returns at once in real time
}

private func displayLinkExample() {
    let link = DisplayLink { link in
        draw(frameAt: link.timestamp, next: link.targetTimestamp)
    }
    link.add(to: RunLoop.current, forMode: .default)
}

private func preferredFramesPerSecondExample() {
    let link = DisplayLink(refreshRate: 60) { _ in }
    link.preferredFramesPerSecond = 24
    // link.preferredFramesPerSecond == 24, link.effectiveFramesPerSecond == 20
}

private func timeSourceExample() -> Instant {
    let virtual = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(virtual))
    let uptime = loop.timeSource.now(.uptime)  // .zero: virtual time starts at zero
    return uptime
}
