import CoreMetrics
internal import TimeUnits

/// The loop's own health through swift-metrics, so the application picks the backend (Prometheus,
/// StatsD, OpenTelemetry, a test's `TestMetrics`). Off by default; ``reportMetrics(label:dimensions:factory:)``
/// turns it on for one loop. Off, it costs one `nil` check per pass and per timer fire.
///
/// Every metric carries `mode` (the mode being run) and the dimensions given; with `label` `runloop`:
///
/// | metric | kind | what |
/// |---|---|---|
/// | `runloop_passes` | Counter | passes of the loop (C-R1) |
/// | `runloop_timer_fires` | Counter | timer callouts; `timer` is the name given with ``setMetricsName(_:for:)`` (a display link's ``DisplayLink/metricsName``) or `""` |
/// | `runloop_timer_lateness` | Timer (ns) | from a timer's fire date to its callout, by `timer` |
/// | `runloop_timer_missed_ticks` | Counter | ticks of repeating timers skipped by the late-fire rule (C-T6) |
/// | `runloop_wakeups` | Counter | wake-ups from sleep, by `reason` (``WakeReason``: timer, input, block, wakeUp, timeout) |
/// | `runloop_asleep_nanoseconds` | Counter | time spent waiting |
/// | `runloop_asleep_ratio` | Gauge | the share of the last second (or more, between passes) spent waiting, 0…1 |
/// | `runloop_timerfd_settime` | Counter | `timerfd_settime` calls: the kernel timer is re-armed only when the next deadline moves earlier than the one it is armed for |
/// | `runloop_early_timer_expiries` | Counter | expiries of the kernel timer armed for a deadline that went away, absorbed by the wait with no pass |
///
/// ```swift
/// MetricsSystem.bootstrap(myFactory)
/// loop.reportMetrics(dimensions: [("instance", "deck-17")])
/// loop.setMetricsName("sampler", for: samplingTimer)
/// ```
extension RunLoop {
    /// Turns on reporting for this loop under `label`, adding `dimensions` to every metric; metrics
    /// are made through `factory`, by default the one bootstrapped in `MetricsSystem`. Call it on
    /// the loop's thread.
    public func reportMetrics(
        label: String = "runloop", dimensions: [(String, String)] = [],
        factory: any MetricsFactory = MetricsSystem.factory
    ) {
        metrics = LoopMetrics(label: label, dimensions: dimensions, factory: factory, start: now.nanoseconds)
    }

    /// Turns reporting off for this loop.
    public func stopReportingMetrics() {
        metrics = nil
    }

    /// Names `timer` in the `timer` dimension of its fires and lateness. The name is kept by the
    /// timer itself, so it holds whether reporting is on yet or not, and goes with the timer.
    public func setMetricsName(_ name: String, for timer: Timer) {
        timer.metricsName = name
    }
}

/// The metrics handles of one loop, made once per mode, timer name and wake-up reason.
final class LoopMetrics {
    private let label: String
    private let dimensions: [(String, String)]
    private let factory: any MetricsFactory
    private var modes: [RunLoop.Mode: Handles] = [:]
    /// The handles of the mode used last: a run stays in one mode for many passes and fires.
    private var last: Handles?
    /// The start of the window the asleep ratio is measured over, and the sleep in it.
    private var windowStart: Int64
    private var asleepInWindow: Int64 = 0
    /// The waiter's totals of `timerfd_settime` calls and early expiries when last reported.
    private var reportedTimerSettings = 0
    private var reportedEarlyTimerExpiries = 0

    /// One timer name's handles in one mode.
    private struct TimerHandles {
        let lateness: CoreMetrics.Timer
        let fires: Counter
    }

    /// One mode's handles.
    private final class Handles {
        let mode: RunLoop.Mode
        let passes: Counter
        let missedTicks: Counter
        let asleep: Counter
        let asleepRatio: Gauge
        let timerSettings: Counter
        let earlyTimerExpiries: Counter
        var wakeUps: [RunLoop.WakeReason: Counter] = [:]
        /// By timer name; `""` for timers without one.
        var timers: [String: TimerHandles] = [:]

        init(mode: RunLoop.Mode, label: String, dimensions: [(String, String)], factory: any MetricsFactory) {
            self.mode = mode
            passes = Counter(label: label + "_passes", dimensions: dimensions, factory: factory)
            missedTicks = Counter(label: label + "_timer_missed_ticks", dimensions: dimensions, factory: factory)
            asleep = Counter(label: label + "_asleep_nanoseconds", dimensions: dimensions, factory: factory)
            asleepRatio = Gauge(label: label + "_asleep_ratio", dimensions: dimensions, factory: factory)
            timerSettings = Counter(label: label + "_timerfd_settime", dimensions: dimensions, factory: factory)
            earlyTimerExpiries = Counter(
                label: label + "_early_timer_expiries", dimensions: dimensions, factory: factory)
        }
    }

    init(label: String, dimensions: [(String, String)], factory: any MetricsFactory, start: Int64) {
        self.label = label
        self.dimensions = dimensions
        self.factory = factory
        windowStart = start
    }

    private func handles(_ mode: RunLoop.Mode) -> Handles {
        if let last, last.mode == mode { return last }
        let handles =
            modes[mode]
            ?? Handles(
                mode: mode, label: label, dimensions: dimensions + [("mode", mode.rawValue)], factory: factory)
        modes[mode] = handles
        last = handles
        return handles
    }

    /// A pass of `mode` began.
    func passed(in mode: RunLoop.Mode) {
        handles(mode).passes.increment()
    }

    /// The loop slept from `start` to `end` (nanoseconds on its clock) and woke for `reason`.
    func slept(from start: Int64, to end: Int64, reason: RunLoop.WakeReason, in mode: RunLoop.Mode) {
        let handles = handles(mode)
        let slept = max(end - start, 0)
        handles.asleep.increment(by: Int64(slept))
        if handles.wakeUps[reason] == nil {
            handles.wakeUps[reason] = Counter(
                label: label + "_wakeups", dimensions: dimensions + [("mode", mode.rawValue), ("reason", "\(reason)")],
                factory: factory)
        }
        handles.wakeUps[reason]?.increment()
        asleepInWindow += slept
        let window = end - windowStart
        if window >= Nanoseconds.perSecond {
            handles.asleepRatio.record(Double(asleepInWindow) / Double(window))
            windowStart = end
            asleepInWindow = 0
        }
    }

    /// The waiter's totals after a wait in `mode`: what they grew by since the last report is
    /// that wait's (the first report counts what came before reporting was turned on as well).
    func kernelTimerUsed(settings: Int, earlyExpiries: Int, in mode: RunLoop.Mode) {
        let handles = handles(mode)
        if settings > reportedTimerSettings {
            handles.timerSettings.increment(by: Int64(settings - reportedTimerSettings))
        }
        if earlyExpiries > reportedEarlyTimerExpiries {
            handles.earlyTimerExpiries.increment(by: Int64(earlyExpiries - reportedEarlyTimerExpiries))
        }
        reportedTimerSettings = settings
        reportedEarlyTimerExpiries = earlyExpiries
    }

    /// `timer`, due at `due`, is called out at `calledAt` (nanoseconds on the loop's clock); a
    /// repeating timer's ticks due in between count as missed (C-T6 skips them).
    func fired(_ timer: Timer, due: Int64, calledAt: Int64, in mode: RunLoop.Mode) {
        let lateness = max(calledAt - due, 0)
        let missedTicks = timer.repeats && timer.intervalNanoseconds > 0 ? lateness / timer.intervalNanoseconds : 0
        let handles = handles(mode)
        let name = timer.metricsName ?? ""
        let timerHandles: TimerHandles
        if let known = handles.timers[name] {
            timerHandles = known
        } else {
            let dimensions = dimensions + [("mode", mode.rawValue), ("timer", name)]
            timerHandles = TimerHandles(
                lateness: CoreMetrics.Timer(label: label + "_timer_lateness", dimensions: dimensions, factory: factory),
                fires: Counter(label: label + "_timer_fires", dimensions: dimensions, factory: factory))
            handles.timers[name] = timerHandles
        }
        timerHandles.lateness.recordNanoseconds(lateness)
        timerHandles.fires.increment()
        if missedTicks > 0 { handles.missedTicks.increment(by: missedTicks) }
    }
}
