import RunLoopKit

// The code examples of RunLoopKit's DocC article on async code (Sources/RunLoopKit/RunLoopKit.docc/
// AsyncCode.md), as written there: the types at file scope, each other example in a function that
// returns what AsyncArticleExampleTests checks.

/// AsyncCode.md, "Actors and tasks on the loop".
actor Journal {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    private(set) var entries: [Instant] = []
    init(loop: RunLoop.Handle) { unownedExecutor = loop.executor.asUnownedSerialExecutor() }
    func note(_ time: Instant) { entries.append(time) }  // on the loop's thread, between timer callouts
}

/// AsyncCode.md, "Actors and tasks on the loop"; returns the journal's entries and when the run returned.
func asyncActorExample() -> ([Instant], Instant) {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let handle = loop.handle
    let journal = Journal(loop: handle)
    Task(executorPreference: handle.taskExecutor) {
        await journal.note(handle.timeSource.now())
    }
    loop.run(mode: .default, until: loop.now + .seconds(1))  // runs the task's jobs, then finishes
    return (journal.assumeIsolated { $0.entries }, loop.now)
}

/// AsyncCode.md, "Sleeps and clocks": a default-mode sleep while the loop tracks; returns the journal's entries.
func asyncSleepInModesExample() -> [Instant] {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    loop.addCommonMode(.tracking)  // as UIKit does
    let handle = loop.handle
    let journal = Journal(loop: handle)
    Task(executorPreference: handle.taskExecutor) {
        try await handle.sleep(for: .seconds(1), inModes: [.default])  // waits while the loop tracks
        await journal.note(handle.timeSource.now())
    }
    let scrolling = Timer(fireAt: loop.now + .seconds(3), interval: .zero, repeats: false) { _ in }
    loop.add(scrolling, forMode: .tracking)
    loop.run(mode: .tracking, until: loop.now + .seconds(5))  // 3 s of scrolling: the sleep waits
    loop.run(mode: .default, until: loop.now + .seconds(1))  // back in the default mode: it ends at 3 s
    return journal.assumeIsolated { $0.entries }
}

/// AsyncCode.md, "Sleeps and clocks": an actor sleeping on the loop's virtual clock.
actor Heartbeat {
    nonisolated let unownedExecutor: UnownedSerialExecutor
    private let clock: VirtualClock
    private(set) var beats: [Instant] = []
    init(loop: RunLoop.Handle, clock: VirtualClock) {
        unownedExecutor = loop.executor.asUnownedSerialExecutor()
        self.clock = clock
    }
    func run() async throws {
        for _ in 0..<3 {
            try await clock.sleep(for: .milliseconds(500))  // a timer of the loop, added on its thread
            beats.append(clock.now)
        }
    }
}

/// AsyncCode.md, "Sleeps and clocks"; returns the beats.
func asyncHeartbeatExample() -> [Instant] {
    let clock = VirtualClock()
    let loop = RunLoop(timeSource: .virtual(clock))
    let heartbeat = Heartbeat(loop: loop.handle, clock: clock)
    Task(executorPreference: loop.taskExecutor) { try await heartbeat.run() }
    loop.run(mode: .default, until: loop.now + .seconds(2))  // beats at 0.5 s, 1 s and 1.5 s, every run
    return heartbeat.assumeIsolated { $0.beats }
}

/// AsyncCode.md, "Timers as sequences"; returns the ticks' fire dates and when the run returned.
func asyncTicksExample() -> ([Instant], Instant) {
    let loop = RunLoop(timeSource: .virtual(VirtualClock()))
    let ticks = loop.handle.ticks(every: .seconds(1))
    let firedAt = LoopBound([Instant](), on: loop)
    Task(executorPreference: loop.taskExecutor) {
        for await tick in ticks.prefix(3) {
            firedAt.value.append(tick.fireDate)  // on the loop's thread
        }
    }
    loop.run(mode: .default, until: loop.now + .seconds(10))  // finishes at 3 s: the timer stopped
    return (firedAt.value, loop.now)
}

/// AsyncCode.md, "The main actor on the main loop" (main thread only, so not run here).
@MainActor final class Status { var text = "" }

@MainActor func updateStatus(_ status: Status) {
    let loop = RunLoop.main
    Task { @MainActor in status.text = "ready" }  // a main-actor job: runs in a common mode
    let timer = Timer(fireAt: loop.now + .milliseconds(10), interval: .zero, repeats: false) { _ in
        MainActor.assumeIsolated { status.text = "fired" }  // a callout on the main thread
    }
    loop.add(timer, forMode: .default)
    loop.run(mode: .default, until: loop.now + .milliseconds(100))
}
