import RunLoopKit
import TimerSlots

/// A row driven by an async task on the dashboard's loop: a `Task` that prefers the loop's task
/// executor and repeats `try await handle.sleep(until: now + interval, inModes: [mode])`, reporting
/// each wake-up as a fire (rule C-X2: each sleep is a one-shot timer in the loop's heap, in `mode`).
///
/// In the default mode it pauses while the loop tracks, like a run loop timer there (M2); its
/// wake-ups run as executor jobs in the loop's common modes (C-X1). Each sleep starts when the
/// last wake-up ran, as `sleep(for:)` does: a task has no grid, so a late wake-up shifts the ones
/// after it and never stands for more than one tick.
///
/// Suspending, stopping and moving cancel the task, which invalidates its sleep's timer at once:
/// nothing stays scheduled. A move sleeps again in the new mode until the same deadline; a resume
/// sleeps for what was left when it was suspended.
final class TaskRowTimer: MovableRowTimer, FirableRowTimer {
    private unowned let loop: RunLoop
    private let interval: Duration
    private let tolerance: Duration
    private let repeats: Bool
    /// The time from a start to the first wake-up, asked at each start (a time of day moves on).
    private let firstFireDelay: (RowState) -> Duration
    private let onFire: (Fire) -> Void
    private var mode: RunLoop.Mode
    private var task: Task<Void, Never>?
    /// Counts the tasks started: a wake-up of a task that was replaced or cancelled reports nothing.
    private var generation = 0
    /// When the sleep under way ends, on the loop's uptime clock; `nil` when none is.
    private var deadline: Instant?
    /// What was left of the sleep when it was suspended.
    private var suspended = TimeLeft()

    init(
        loop: RunLoop, mode: RunLoop.Mode, interval: Duration, tolerance: Duration, repeats: Bool,
        firstFireDelay: @escaping (RowState) -> Duration, onFire: @escaping (Fire) -> Void
    ) {
        self.loop = loop
        self.mode = mode
        self.interval = interval
        self.tolerance = tolerance
        self.repeats = repeats
        self.firstFireDelay = firstFireDelay
        self.onFire = onFire
    }

    func start(for row: RowState) {
        if let mode = row.mode { self.mode = mode }
        suspended.forget()
        sleep(until: loop.now + firstFireDelay(row))
    }

    func stop() {
        cancel()
        suspended.forget()
    }

    func suspend() {
        guard let deadline else { return }
        suspended.hold(until: deadline, now: loop.now)
        cancel()
    }

    func resume() {
        guard let deadline = suspended.resume(now: loop.now) else { return }
        sleep(until: deadline)
    }

    /// Cancels the sleep under way and sleeps again until the same deadline in `mode`.
    func move(to mode: RunLoop.Mode) {
        self.mode = mode
        if let deadline { sleep(until: deadline) }
    }

    /// Runs what a wake-up runs (the report) now, outside the schedule, as `Timer.fire()` does
    /// (T2): the sleep under way goes on. Nothing when stopped.
    func fireNow() {
        guard deadline != nil || suspended.isHeld else { return }
        onFire(.wake(time: loop.now, mode: loop.currentMode, due: nil))
    }

    func invalidate() { stop() }

    var nextFire: Instant? { deadline }

    /// Replaces the task with one whose first sleep ends at `deadline`.
    private func sleep(until deadline: Instant) {
        cancel()
        self.deadline = deadline
        let handle = loop.handle
        let (mode, tolerance, generation) = (mode, tolerance, generation)
        let woke = LoopBound({ [weak self] (deadline: Instant) in self?.woke(generation, due: deadline) }, on: loop)
        task = Task(executorPreference: handle.taskExecutor) {
            var due = deadline
            while true {
                do {
                    try await handle.sleep(until: due, tolerance: tolerance, inModes: [mode])
                } catch {
                    return
                }
                guard let next = woke.value(due) else { return }
                due = next
            }
        }
    }

    /// A wake-up of task `generation` from a sleep that was due at `due`, on the loop's thread:
    /// reported (the deadline and the clock's reading, the facts) unless that task was replaced;
    /// returns the next sleep's deadline, or `nil` to end.
    private func woke(_ generation: Int, due: Instant) -> Instant? {
        guard generation == self.generation else { return nil }
        let now = loop.now
        deadline = repeats ? now + interval : nil
        onFire(.wake(time: now, mode: loop.currentMode, due: due))
        // The report may have stopped, moved or restarted it: then this task ends.
        guard generation == self.generation else { return nil }
        return deadline
    }

    /// Cancels the task; its sleep's timer is invalidated and a wake-up already queued reports nothing.
    private func cancel() {
        task?.cancel()
        task = nil
        generation += 1
        deadline = nil
    }
}
