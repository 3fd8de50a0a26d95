import RunLoopKitFoundationCompat

// Every code example in RunLoopKitFoundationCompat's documentation comments and DocC articles, one
// function each, as written there; compiled, not run.

private func timerExample() {
    var ticks = 0
    let timer = Timer.scheduledTimer(withTimeInterval: 0.1, repeats: true) { timer in
        ticks += 1
        if ticks == 3 { timer.invalidate() }
    }
    timer.tolerance = 0.01
    RunLoop.current.run(until: Date(timeIntervalSinceNow: 1))
}

private func modeExample(timer: Timer) {
    RunLoop.current.add(timer, forMode: .common)
    let modal = RunLoop.Mode("modal")
    RunLoop.current.add(timer, forMode: modal)
}

private func runLoopExample() {
    let timer = Timer(timeInterval: 0.5, repeats: true) { _ in print("tick") }
    RunLoop.current.add(timer, forMode: .common)
    RunLoop.current.run(until: Date(timeIntervalSinceNow: 2))
}

/// Porting.md.
private func portingExample() {
    let timer = Timer(timeInterval: 0.5, repeats: true) { timer in print("tick", timer.fireDate) }
    timer.tolerance = 0.05
    RunLoop.current.add(timer, forMode: .common)
    RunLoop.current.run(until: Date(timeIntervalSinceNow: 2))
}

/// Porting.md: GCD code with only this module imported.
private func portingDispatchExample() {
    let queue = DispatchQueue(label: "refresh")
    queue.asyncAfter(deadline: .now() + .seconds(1)) { print("one second later, on the queue") }
}

/// Port's documentation comment.
private func portExample() {
    final class Doorbell: Port {
        override func schedule(in runLoop: RunLoop, forMode mode: RunLoop.Mode) { print("in \(mode)") }
    }
    let doorbell = Doorbell()
    RunLoop.current.add(doorbell, forMode: .default)  // prints "in kCFRunLoopDefaultMode"
    RunLoop.current.add(doorbell, forMode: .default)  // already there: prints nothing
}
