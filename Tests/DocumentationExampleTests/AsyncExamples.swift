import RunLoopKit

// The code examples of RunLoopKit's async API (rules C-X1…C-X3) as written in its documentation
// comments, compiled, not run (ExampleCoverageTests checks that each is here), with what they take
// from their context as parameters and the app functions they call as stubs below.

// MARK: Stubs for the app code the examples call

private func advance(by ticks: Int) {}
private func draw(at timestamp: Instant, next: Instant) {}
private func work() async throws {}
private func refresh() {}
private func render(at instant: Instant) {}

// MARK: Documentation comments

private enum ExecutorExample {
    actor Counter {
        nonisolated let unownedExecutor: UnownedSerialExecutor
        var count = 0
        init(loop: RunLoop.Handle) { unownedExecutor = loop.executor.asUnownedSerialExecutor() }
        func increment() { count += 1 }  // on the loop's thread, between timer callouts
    }
}

private func loopTaskExecutorExample(loop: RunLoop, handle: RunLoop.Handle) {
    Task(executorPreference: loop.taskExecutor) {
        try await handle.sleep(for: .seconds(1))
        refresh()  // on the loop's thread
    }
}

private func submitExample(handle: RunLoop.Handle) async {
    let fireDate = await handle.submit { loop in loop.nextFireDate(forMode: .default) }
    _ = fireDate
}

private func sleepExample(loop: RunLoop) {
    let handle = loop.handle
    Task(executorPreference: handle.taskExecutor) {
        try await handle.sleep(for: .seconds(1), inModes: [.default])  // pauses while scrolling
    }
}

private func loopClockExample(loop: RunLoop) async throws {
    let clock = loop.handle.clock(inModes: [.default])
    try await clock.sleep(for: .milliseconds(500))  // pauses while the loop tracks
    let elapsed = try await clock.measure { try await work() }
    _ = elapsed
}

private func virtualClockExample() {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    Task(executorPreference: loop.taskExecutor) { try await clock.sleep(for: .seconds(5)) }
    loop.run(mode: .default, until: loop.now + .seconds(10))  // returns at once in real time
}

private func ticksExample(handle: RunLoop.Handle) async {
    for await tick in handle.ticks(every: .seconds(1), inModes: [.default]) {
        render(at: tick.fireDate)
    }
}

private func timeSequenceExample(loop: RunLoop) {
    let ticks = loop.handle.ticks(every: .seconds(1), inModes: [.default])
    Task(executorPreference: loop.taskExecutor) {
        for await tick in ticks where tick.missedTicks > 0 { print("skipped", tick.missedTicks) }
    }
}

private func framesExample(loop: RunLoop) {
    let link = DisplayLink { _ in }
    link.add(to: loop, forMode: .common)
    let frames = link.frames
    Task(executorPreference: loop.taskExecutor) {
        for await frame in frames { draw(at: frame.timestamp, next: frame.targetTimestamp) }
    }
}

private func eventsExample(loop: RunLoop) {
    let timer = DispatchTimer(runLoop: loop) { _ in }
    timer.schedule(deadline: .now, repeating: .seconds(1))
    timer.resume()
    let events = timer.events
    Task(executorPreference: loop.taskExecutor) {
        for await event in events { advance(by: event.ticks) }
    }
}
