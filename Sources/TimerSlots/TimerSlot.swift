import RunLoopKit

/// A run loop timer (repeating unless told otherwise) that can be started, stopped, suspended, resumed, moved between modes
/// and fired by hand, reporting every fire with its lateness and skipped ticks: what a dashboard or
/// a job scheduler does with a timer without rebuilding these steps each time.
///
/// Suspending parks the fire date in the distant future and remembers the time that was left (the
/// usual iOS idiom); resuming puts it back. Stopping invalidates the timer; starting schedules a new
/// one, first fire one interval from now (seed M1) unless ``firstFireDelay`` says otherwise.
///
/// ```swift
/// let slot = TimerSlot(interval: .seconds(5), mode: .common, loop: .current)
/// slot.onFire = { fire in print("fired \(fire.lateness) late in \(fire.mode?.rawValue ?? "-")") }
/// slot.start()
/// slot.suspendOrResume()   // held
/// slot.move(to: .default)  // now pauses while tracking (M2)
/// ```
package final class TimerSlot {
    /// One fire, as reported to the action.
    package struct Fire: Sendable {
        /// When it fired, on the loop's uptime clock.
        package var time: Instant
        /// The mode the loop ran.
        package var mode: RunLoop.Mode?
        /// How long after its fire date it fired (zero for a fire by hand).
        package var lateness: Duration
        /// Grid points this fire stands for: 1, or more when the timer was late past its next ones (C-T6).
        package var ticks: Int
        /// Whether it was fired by hand (``fireNow()``, seed T2).
        package var isManual: Bool
    }

    /// The repeat interval.
    package let interval: Duration
    /// The mode the timer is (or will be) scheduled in.
    package private(set) var mode: RunLoop.Mode
    /// Not owned: a slot that outlives its loop does nothing (``start()`` schedules nothing).
    private weak var loop: RunLoop?
    /// The timer's tolerance (C-T9), applied at the next ``start()``.
    package var tolerance: Duration = .zero
    /// Whether it repeats; a one-shot timer invalidates itself after its fire. Applied at the next ``start()``.
    package var repeats = true
    /// The time from the start to the first fire; `nil` for one interval (M1), `.zero` for at once.
    /// Applied at the next ``start()``.
    package var firstFireDelay: Duration?
    /// The name of its timers in the loop's metrics (``RunLoop/setMetricsName(_:for:)``); `nil` for
    /// none. Applied at the next ``start()``.
    package var metricsName: String?
    /// What runs at each fire.
    package var onFire: (Fire) -> Void = { _ in }
    private var timer: Timer?
    private var suspended = TimeLeft()
    private var firingManually = false
    /// Whether ``invalidate()`` ended the timer (it stays so until started again).
    package private(set) var wasInvalidated = false

    /// A stopped slot whose timer will repeat every `interval` in `mode` of `loop`.
    package init(interval: Duration, mode: RunLoop.Mode, loop: RunLoop) {
        self.interval = interval
        self.mode = mode
        self.loop = loop
    }

    /// Whether a valid timer is scheduled (suspended or not).
    package var isRunning: Bool { timer?.isValid ?? false }
    /// Whether the timer is held by ``suspendOrResume()``.
    package var isSuspended: Bool { suspended.isHeld }
    /// The next fire, or `nil` when stopped or suspended.
    package var nextFire: Instant? { isSuspended ? nil : timer.flatMap { $0.isValid ? $0.fireDate : nil } }

    /// Schedules a new timer, first fire one interval from now (seed M1, Darwin semantics) or at once
    /// after ``firstFireDelay``, repeating unless ``repeats`` is off, with ``tolerance``.
    package func start() {
        stop()
        wasInvalidated = false
        guard let loop else { return }
        let firstFire = loop.now + (firstFireDelay ?? interval)
        let timer = Timer(fireAt: firstFire, interval: interval, repeats: repeats) { [weak self] timer in
            self?.fired(timer)
        }
        timer.tolerance = tolerance
        if let metricsName { loop.setMetricsName(metricsName, for: timer) }
        loop.add(timer, forMode: mode)
        self.timer = timer
    }

    /// Invalidates the timer and forgets it.
    package func stop() {
        timer?.invalidate()
        timer = nil
        suspended.forget()
    }

    /// Invalidates the timer and remembers that it was invalidated (``wasInvalidated``).
    package func invalidate() {
        guard timer != nil else { return }
        stop()
        wasInvalidated = true
    }

    /// Holds a running timer, or lets a held one go on with the time it had left.
    package func suspendOrResume() {
        guard let timer, timer.isValid, let loop else { return }
        if let deadline = suspended.resume(now: loop.now) {
            timer.fireDate = deadline
        } else {
            suspended.hold(until: timer.fireDate, now: loop.now)
            timer.fireDate = .distantFuture
        }
    }

    /// Moves the timer (now or when started) to `newMode`, keeping its fire date.
    package func move(to newMode: RunLoop.Mode) {
        let old = mode
        mode = newMode
        guard let timer, let loop else { return }
        loop.move(timer, from: old, to: newMode)
    }

    /// Runs the action now without disturbing the schedule (seed T2); nothing when stopped.
    package func fireNow() {
        guard let timer, timer.isValid else { return }
        firingManually = true
        timer.fire()
        firingManually = false
    }

    private func fired(_ timer: Timer) {
        guard let loop else { return }
        var lateness = Duration.zero
        var ticks = 1
        if !firingManually {
            lateness = timer.fireDate.duration(to: loop.now)
            // C-T6: the grid points that passed while the timer could not fire were skipped.
            ticks = 1 + Int(lateness.nanoseconds / max(interval.nanoseconds, 1))
        }
        onFire(Fire(time: loop.now, mode: loop.currentMode, lateness: lateness, ticks: ticks, isManual: firingManually))
    }
}
