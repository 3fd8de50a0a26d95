import RunLoopKit

/// The lifetime lab's live objects (L1–L3): the open screens of each strategy, the timers of the
/// closed ones that may still run, and the counts their initialisers, `deinit`s and callouts keep.
/// The dashboard's state holds none of this; it reads ``readings`` when it draws.
final class Lab {
    private let loop: RunLoop
    private let counts: [LabCounts]
    private var open: [[LabScreen]]
    private var closed: [Int]
    /// The timers of closed screens (those found stopped are dropped at the next close), per strategy.
    private var leftBehind: [[LabScreen.TimerProbe]]

    /// A lab whose screens' timers run on `loop`; `onChange` runs after every tick and `deinit`.
    init(loop: RunLoop, onChange: @escaping () -> Void) {
        self.loop = loop
        let strategies = LabStrategy.allCases.count
        counts = (0..<strategies).map { _ in LabCounts() }
        for count in counts { count.onChange = onChange }
        open = Array(repeating: [], count: strategies)
        closed = Array(repeating: 0, count: strategies)
        leftBehind = Array(repeating: [], count: strategies)
    }

    /// Opens a screen of `strategy`.
    func open(_ strategy: LabStrategy) {
        open[strategy.rawValue].append(LabScreen(strategy: strategy, loop: loop, counts: counts[strategy.rawValue]))
    }

    /// Closes the newest screen of `strategy`: the lab lets go of it, as a navigation stack pops a
    /// view controller. Whether it is freed is up to its timer.
    func closeNewest(_ strategy: LabStrategy) {
        guard let screen = open[strategy.rawValue].popLast() else { return }
        screen.isClosed = true
        closed[strategy.rawValue] += 1
        leftBehind[strategy.rawValue].removeAll { !$0.isScheduled() }
        leftBehind[strategy.rawValue].append(screen.probe)
    }

    /// Invalidates the timers of the closed screens of `strategy`; a leaked screen is then freed.
    func stopLeftBehind(_ strategy: LabStrategy) {
        let probes = leftBehind[strategy.rawValue]
        leftBehind[strategy.rawValue] = []
        for probe in probes { probe.stop() }
    }

    /// What the lab shows now, one reading per strategy.
    var readings: [LabReading] {
        LabStrategy.allCases.map { strategy in
            let index = strategy.rawValue
            let count = counts[index]
            let scheduled =
                open[index].count { $0.probe.isScheduled() } + leftBehind[index].count { $0.isScheduled() }
            return LabReading(
                opened: count.opened, closed: closed[index], alive: count.opened - count.freed,
                scheduled: scheduled, fires: count.fires, firesAfterClose: count.firesAfterClose)
        }
    }
}

/// One strategy's line of the lab, as counted by the real objects.
struct LabReading: Equatable, Sendable {
    var opened: Int
    var closed: Int
    /// Screens whose `deinit` has not run.
    var alive: Int
    /// Timers of this strategy that can still fire.
    var scheduled: Int
    var fires: Int
    /// Ticks delivered to screens already closed.
    var firesAfterClose: Int
}
