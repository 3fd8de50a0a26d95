import RunLoopKit
import TerminalUI
import Uploads

/// The dashboard on a virtual clock and an in-memory screen, driven by a script: the same script
/// gives the same output every time.
///
/// The script is an input source like a user's: its steps run as common-mode blocks and timers,
/// so a `key` that starts a scroll gesture is followed by the next steps *inside* the nested
/// tracking run, and a `snapshot` there shows the loop in the tracking mode.
package final class HeadlessSession {
    private let steps: [ResolvedStep]
    private let loop: RunLoop
    /// The dashboard's clock, steered by the time-control keys, over ``virtualClock``.
    private let time: TimeControl
    /// The script's own time: `wait` counts on it, so a paused or slowed dashboard clock does not
    /// hold the script back.
    private let virtualClock: VirtualClock
    private let screen: GridScreen
    private let driver: DashboardDriver
    private let output: (String) -> Void
    private let uploads: UploadPipeline?
    /// Whether a snapshot is written as a JSON line (``SnapshotRecord``) instead of the screen.
    private let json: Bool
    /// Whether the plain mode's lines are written as they happen, and a snapshot is its report line.
    private let plain: Bool
    private var nextStep = 0

    private enum ResolvedStep {
        case size(Size)
        case key(Key)
        case wait(Duration)
        case wall(Instant)
        case snapshot, quit
    }

    /// Prepares a session.
    ///
    /// The upload pipeline runs on the same virtual clock; its outbox and sink come from `uploads`
    /// (`nil` when the config's timers drive no uploads); `configPath` names the file `config` came from.
    /// With `json`, each snapshot is one JSON line of the dashboard's state instead of the screen.
    /// With `plain`, the plain mode's lines (``PlainNarration``) are written as they happen and each
    /// snapshot is the report of every timer's state. `laps` receives the stopwatches' laps at the
    /// end; `timers` keeps the running timers across runs (read at the start unless `startsFresh`).
    /// The dashboard draws on `screen` (a test reads its cells' styles there).
    /// - Throws: ``SystemCallError`` when the run loop cannot be created (out of descriptors).
    @available(*, noasync)
    package init(
        config: Config, configPath: String? = nil, uploads setup: UploadsSetup?, script: HeadlessScript,
        trace: TraceFile? = nil, laps: LapsFile? = nil, timers: TimerStateFile? = nil, startsFresh: Bool = false,
        json: Bool = false, plain: Bool = false, screen: GridScreen = GridScreen(size: DashboardLayout.minimumSize),
        output: @escaping (String) -> Void
    ) throws(SystemCallError) {
        self.json = json
        self.plain = plain
        var resolved: [ResolvedStep] = []
        for step in script.steps {
            switch step {
            case .size(let width, let height): resolved.append(.size(Size(width: width, height: height)))
            case .key(let key): resolved.append(.key(key))
            case .wait(let duration): resolved.append(.wait(duration))
            case .wall(let instant): resolved.append(.wall(instant))
            case .snapshot: resolved.append(.snapshot)
            case .quit: resolved.append(.quit)
            }
        }
        steps = resolved
        self.output = output
        let base = setup?.headlessWallStart.map { VirtualClock(wallStart: $0) } ?? VirtualClock()
        virtualClock = base
        time = TimeControl(base: .virtual(base))
        loop = try RunLoop.make(timeSource: .controlled(time))
        self.screen = screen
        uploads = setup?.makePipeline(on: loop)
        // Nobody watches between snapshots: changes accumulate and `snapshot` draws the whole
        // screen from the state, which gives the same screen as drawing every change, minutes faster.
        driver = StandardDashboard.make(
            config: config, loop: loop, screen: screen, pipeline: uploads,
            sinkLabel: setup?.sinkLabel ?? "", rendersOnChange: false)
        driver.trace = trace
        driver.laps = laps
        driver.stateFile = timers
        driver.startsFresh = startsFresh
        driver.configPath = configPath
        if plain { driver.plainOutput = output }
    }

    /// Runs the script to its end (or `quit`), then flushes the uploads; returns the samples left in the outbox.
    @available(*, noasync)
    @discardableResult
    package func run() -> Int {
        RunLoop.withCurrent(loop) {
            // A script that starts with `wall` starts at that time: the timers kept are restored then.
            while nextStep < steps.count, case .wall(let instant) = steps[nextStep] {
                time.setWall(to: instant)
                nextStep += 1
            }
            driver.launch()
            loop.perform(inModes: RunLoop.Mode.inputModes) { [weak self] in self?.advance() }
            while !driver.quitRequested {
                loop.run(mode: .default, until: .distantFuture)
            }
            driver.stopHooks()
            return uploads?.flush() ?? 0
        }
    }

    /// Takes the next step once the upload pipeline's I/O has come back, so that every step (a
    /// snapshot above all) sees the outcome of what the previous instant started.
    private func advance() {
        if let next = loop.nextFireDate(forMode: loop.currentMode ?? .default), next <= loop.now {
            // A key made a timer due at this instant (a step of the clock): go on once it fired.
            let timer = Timer(fireAt: next, interval: .zero, repeats: false) { [weak self] _ in self?.continueSoon() }
            for mode in RunLoop.Mode.inputModes { loop.add(timer, forMode: mode) }
            return
        }
        guard let uploads else {
            takeNextStep()
            return
        }
        uploads.whenSettled { [weak self] in self?.takeNextStep() }
    }

    private func takeNextStep() {
        guard nextStep < steps.count else {
            driver.terminate()
            return
        }
        let step = steps[nextStep]
        nextStep += 1
        switch step {
        case .size(let size):
            screen.resize(to: size)
            driver.screenResized()
            continueSoon()
        case .key(let key):
            continueSoon()
            driver.receive([key])
        case .wait(let duration):
            guard !time.isPaused else {
                // Nothing on the dashboard's clock can happen: only the script's time passes.
                virtualClock.busy(duration)
                continueSoon()
                return
            }
            // Continue in a block, after every timer due at that instant has fired. In slow
            // motion the dashboard's clock covers a fraction of the wait.
            let (numerator, denominator) = time.rate
            let (scaled, overflow) = duration.nanoseconds.multipliedReportingOverflow(by: numerator)
            let span: Duration = overflow ? duration : .nanoseconds(scaled / denominator)
            let timer = Timer(fireAt: loop.now + span, interval: .zero, repeats: false) { [weak self] _ in
                self?.continueSoon()
            }
            for mode in RunLoop.Mode.inputModes { loop.add(timer, forMode: mode) }
        case .wall(let instant):
            time.setWall(to: instant)
            continueSoon()
        case .snapshot where plain:
            output(PlainNarration.report(driver.snapshot()))
            continueSoon()
        case .snapshot where json:
            output(SnapshotRecord(driver.snapshot()).line)
            continueSoon()
        case .snapshot:
            driver.render(everything: true)
            output("--- snapshot t=\(virtualClock.now().description.dropLast()) ---")
            output(screen.snapshot())
            continueSoon()
        case .quit:
            driver.terminate()
        }
    }

    private func continueSoon() {
        loop.perform(inModes: RunLoop.Mode.inputModes) { [weak self] in self?.advance() }
    }
}
