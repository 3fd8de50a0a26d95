import DequeModule
import RunLoopKit
import TerminalUI
import Uploads

/// The dashboard's state and behaviour, independent of how it is drawn.
///
/// It lives on its run loop's thread. Scrolling the fire log runs the loop re-entrantly in the
/// tracking mode until the gesture ends (ARCHITECTURE.md, decisions.md 7), exactly like a
/// UIScrollView drag runs the main run loop in UITrackingRunLoopMode: default-mode timers visibly
/// pause while common-mode ones keep going (seed M2).
public final class Dashboard {
    /// The panels that take focus, in `Tab` order.
    public enum Panel: Int, CaseIterable, Sendable {
        case countdowns, ticker, inspector, log, uploads
    }

    /// What the tracking mode is doing.
    public enum Gesture: Equatable, Sendable {
        /// The loop is not tracking.
        case none
        /// Scrolling: the nested tracking run ends after the quiet period.
        case scrolling
        /// `t`: the nested tracking run lasts until `t` again.
        case held
    }

    /// The run loop everything is scheduled on.
    public let loop: RunLoop
    /// The settings in force.
    public let config: Config
    /// When the dashboard started; the fire log shows times since then.
    public let startTime: Instant
    /// Every fire, bounded.
    public private(set) var log: FireLog
    /// The SMS resend buttons (S1).
    public private(set) var countdowns: [any CountdownRow] = []
    /// Every timer on the dashboard, in inspector order.
    public private(set) var timers: [any DeckTimer] = []
    /// The frame ticker (S3).
    public private(set) var ticker: TickerRow?
    /// The periodic sample-and-upload pipeline (S2), if the dashboard has one.
    public let uploads: UploadPipeline?
    /// The upload sink as the panel names it.
    public let uploadsSinkLabel: String
    /// The pipeline's sampler and uploader as timers, in the upload panel's order.
    public private(set) var uploadJobs: [any DeckTimer] = []
    /// The panel with focus.
    public private(set) var focus: Panel = .countdowns
    /// The selected row of each panel.
    public private(set) var selection: [Panel: Int] = [:]
    /// How many entries the log view is scrolled back from the newest (0 follows new entries).
    public private(set) var logScrollback = 0
    /// Whether the help overlay is shown.
    public private(set) var isHelpVisible = false
    /// A short message for the status bar (an ignored key, a refused action).
    public private(set) var hint: String?
    /// The tracking gesture in progress.
    public private(set) var gesture: Gesture = .none
    /// Set by `q`; the driver ends the outer run when it sees it.
    public private(set) var quitRequested = false
    /// Called (through a common-mode block, once per pass at most) when something visible changed.
    public var onChange: () -> Void = {}
    /// The parts of the screen that changed since the last render.
    public private(set) var dirty: ViewParts = .all

    private var renderScheduled = false
    private var gestureEnd: Timer?
    private var relativeTimesRefresh: Timer?
    private var pendingKeys: Deque<Key> = []
    private var logPage = 10

    /// Creates the dashboard on `loop`, making the tracking mode common as UIKit does (decisions.md 6).
    ///
    /// `uploads` must be on `loop`; the dashboard starts it, logs its fires and shows it in a panel.
    public init(loop: RunLoop, config: Config, uploads: UploadPipeline? = nil, sinkLabel: String = "") {
        self.loop = loop
        self.config = config
        self.uploads = uploads
        uploadsSinkLabel = sinkLabel.isEmpty ? uploads?.sink.destination ?? "" : sinkLabel
        startTime = loop.now
        log = FireLog(capacity: config.logCapacity)
        loop.addCommonMode(.tracking)
        let record: (FireRecord) -> Void = { [unowned self] record in self.append(record) }
        let changed: () -> Void = { [unowned self] in self.changed([.countdowns, .inspector]) }
        countdowns = [
            LoopCountdown(name: "sms-default", seconds: config.countdownSeconds, mode: .default,
                          loop: loop, record: record, changed: changed),
            LoopCountdown(name: "sms-common", seconds: config.countdownSeconds, mode: .common,
                          loop: loop, record: record, changed: changed),
            DispatchCountdown(name: "sms-gcd", seconds: config.countdownSeconds, loop: loop,
                              record: record, changed: changed),
        ]
        // A frame redraws the ripple only; the inspector's ticker row follows with the once-a-second
        // refresh and at every skip (a log entry), so a frame costs the cells of the animation.
        let ticker = TickerRow(refreshRate: config.tickerFPS, mode: config.tickerMode, loop: loop, record: record) {
            [unowned self] in self.changed(.ticker)
        }
        self.ticker = ticker
        if let uploads {
            uploadJobs = UploadPipeline.Job.allCases.map { job in
                PipelineJobRow(job, of: uploads) { [unowned self] in self.changed([.uploads, .inspector]) }
            }
            uploads.onFire = { [unowned self] job, fire in
                append(FireRecord(fire, timer: job.timerName))
            }
            uploads.onChange = { [unowned self] in self.changed([.uploads, .inspector]) }
        }
        timers = countdowns + [ticker] + uploadJobs
    }

    /// Starts what runs from launch: the frame ticker and the upload pipeline.
    public func start() {
        ticker?.start()
        uploads?.start()
        keepRelativeTimesFresh()
    }

    /// While any timer runs, redraws the "next in …" columns once a second (a common-mode timer with
    /// a loose tolerance, so it rides on wake-ups the running timers cause anyway); with every timer
    /// stopped or paused, it stops too and the dashboard sleeps.
    private func keepRelativeTimesFresh() {
        let anyRunning = timers.contains { $0.baseState == .running }
        if anyRunning, relativeTimesRefresh == nil {
            let refresh = Timer(fireAt: loop.now + .seconds(1), interval: .seconds(1), repeats: true) { [unowned self] _ in
                changed([.inspector, .uploads])
                keepRelativeTimesFresh()
            }
            refresh.tolerance = .milliseconds(250)
            loop.add(refresh, forMode: .common)
            relativeTimesRefresh = refresh
        } else if !anyRunning {
            relativeTimesRefresh?.invalidate()
            relativeTimesRefresh = nil
        }
    }

    /// Handles keys in order. A key that starts a tracking gesture runs the nested tracking run;
    /// the keys after it are handled inside that run, as a scroll view keeps receiving touches.
    public func receive(_ keys: [Key], logPage: Int) {
        self.logPage = logPage
        pendingKeys.append(contentsOf: keys)
        handlePendingKeys()
    }

    private func handlePendingKeys() {
        while let key = pendingKeys.popFirst() {
            if !pendingKeys.isEmpty {
                loop.perform(inModes: [.common]) { [weak self] in self?.handlePendingKeys() }
            }
            if let command = Keymap.command(for: key, focus: focus, logPage: logPage) {
                perform(command)
            } else {
                show(hint: "key \(key) does nothing here — press ? for help")
            }
            if quitRequested { return }
        }
    }

    /// Adds a row to the SMS panel (and the inspector).
    public func addCountdown(_ row: any CountdownRow) {
        countdowns.append(row)
        timers.insert(row, at: countdowns.count - 1)
    }

    /// Adds a timer to the inspector.
    public func addTimer(_ timer: any DeckTimer) {
        timers.append(timer)
    }

    /// Records a fire in the log (the log view stays put if scrolled back).
    public func append(_ record: FireRecord) {
        log.append(record)
        if logScrollback > 0 { logScrollback = min(logScrollback + 1, max(log.count - 1, 0)) }
        changed([.log, .inspector])
    }

    /// The timer the keys `s`, `p`, `m`, `f`, `x` act on, if the focused panel has one selected.
    public var selectedTimer: (any DeckTimer)? {
        switch focus {
        case .countdowns: return countdowns.indices.contains(selected(.countdowns)) ? countdowns[selected(.countdowns)] : nil
        case .inspector: return timers.indices.contains(selected(.inspector)) ? timers[selected(.inspector)] : nil
        case .ticker: return ticker
        case .uploads: return uploadJobs.indices.contains(selected(.uploads)) ? uploadJobs[selected(.uploads)] : nil
        case .log: return nil
        }
    }

    /// The selected row of `panel`.
    public func selected(_ panel: Panel) -> Int {
        selection[panel] ?? 0
    }

    /// Carries out `command`.
    public func perform(_ command: Command) {
        hint = nil
        switch command {
        case .focusNext: focus = Panel(rawValue: (focus.rawValue + 1) % Panel.allCases.count)!
        case .focusPrevious: focus = Panel(rawValue: (focus.rawValue + Panel.allCases.count - 1) % Panel.allCases.count)!
        case .selectPrevious: moveSelection(by: -1)
        case .selectNext: moveSelection(by: 1)
        case .press: press()
        case .startOrStop: act("start or stop") { $0.startOrStop() }
        case .suspendOrResume: act("suspend or resume") { $0.suspendOrResume() }
        case .moveMode:
            act("move") { timer in
                if !timer.moveToNextMode() { hint = "\(timer.name) is mode-independent (a dispatch timer, G1)" }
            }
        case .fireNow: act("fire") { $0.fireNow() }
        case .invalidate: act("invalidate") { $0.invalidate() }
        case .toggleTrackingHold: toggleTrackingHold()
        case .scroll(let lines): scroll(by: lines)
        case .scrollToOldest: scroll(by: -log.count)
        case .scrollToNewest: scroll(by: log.count)
        case .dragBegan: if gesture == .none { track(held: true) }
        case .dragEnded: if gesture != .none { loop.stop() }
        case .frameIntervalUp, .frameIntervalDown, .toggleSlowLoad:
            ticker?.adjust(command)
        case .toggleHelp: isHelpVisible.toggle()
        case .dismiss: isHelpVisible = false
        case .quit: quit()
        }
        keepRelativeTimesFresh()
        changed(.all)
    }

    /// Shows `text` in the status bar until the next key.
    public func show(hint text: String) {
        hint = text
        changed(.status)
    }

    /// Ends the session: stops every run in progress (a gesture first).
    public func quit() {
        quitRequested = true
        loop.stop()
    }

    /// Marks `parts` stale; the render runs once, in a common-mode block later in this pass.
    public func changed(_ parts: ViewParts) {
        dirty.formUnion(parts)
        guard !renderScheduled else { return }
        renderScheduled = true
        loop.perform(inModes: [.common]) { [weak self] in
            guard let self else { return }
            renderScheduled = false
            onChange()
        }
    }

    /// Takes the set of stale parts for a render, leaving it empty.
    public func takeDirtyParts() -> ViewParts {
        defer { dirty = [] }
        return dirty
    }

    private func moveSelection(by delta: Int) {
        let count: Int
        switch focus {
        case .countdowns: count = countdowns.count
        case .inspector: count = timers.count
        case .log:
            scroll(by: -delta)
            return
        case .ticker: count = 1
        case .uploads: count = uploadJobs.count
        }
        guard count > 0 else { return }
        selection[focus] = min(max(selected(focus) + delta, 0), count - 1)
    }

    private func press() {
        guard focus == .countdowns, countdowns.indices.contains(selected(.countdowns)) else {
            hint = "Enter presses a button in the SMS panel"
            return
        }
        let row = countdowns[selected(.countdowns)]
        if !row.countdown.isEnabled { hint = "\(row.name) is counting: the press is ignored (S1)" }
        row.press()
    }

    private func act(_ verb: String, _ body: (any DeckTimer) -> Void) {
        guard let timer = selectedTimer else {
            hint = "select a timer to \(verb) (Tab to the SMS, ticker, inspector or uploads panel)"
            return
        }
        body(timer)
    }

    // MARK: Tracking (decisions.md 7)

    /// Scroll input: moves the log view and starts or extends a tracking gesture.
    private func scroll(by lines: Int) {
        logScrollback = min(max(logScrollback - lines, 0), max(log.count - 1, 0))
        switch gesture {
        case .none: track(held: false)
        case .scrolling: gestureEnd?.fireDate = loop.now + config.gestureQuiet
        case .held: break
        }
    }

    private func toggleTrackingHold() {
        switch gesture {
        case .none: track(held: true)
        case .scrolling:
            gestureEnd?.invalidate()
            gestureEnd = nil
            gesture = .held
        case .held: loop.stop()
        }
    }

    /// Runs the loop re-entrantly in the tracking mode until the gesture ends (C-M11, seed M2).
    private func track(held: Bool) {
        gesture = held ? .held : .scrolling
        if !held {
            let end = Timer(fireAt: loop.now + config.gestureQuiet, interval: .zero, repeats: false) { [unowned self] _ in
                loop.stop()
            }
            loop.add(end, forMode: .tracking)
            gestureEnd = end
        }
        changed(.all)
        loop.run(mode: .tracking, until: .distantFuture)
        gestureEnd?.invalidate()
        gestureEnd = nil
        gesture = .none
        changed(.all)
        if quitRequested { loop.stop() }
    }
}

/// Parts of the screen that redraw independently.
public struct ViewParts: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let title = ViewParts(rawValue: 1 << 0)
    public static let countdowns = ViewParts(rawValue: 1 << 1)
    public static let ticker = ViewParts(rawValue: 1 << 2)
    public static let inspector = ViewParts(rawValue: 1 << 3)
    public static let log = ViewParts(rawValue: 1 << 4)
    public static let status = ViewParts(rawValue: 1 << 5)
    public static let uploads = ViewParts(rawValue: 1 << 6)
    public static let all: ViewParts = [.title, .countdowns, .ticker, .inspector, .log, .status, .uploads]
}

/// An SMS panel row: a ``Countdown`` button driven by some timer mechanism.
public protocol CountdownRow: DeckTimer {
    /// The button.
    var countdown: Countdown { get }
    /// The mechanism in a word, for the SMS panel: "Timer", "GCD".
    var kind: String { get }
    /// Enter on the row: starts a countdown unless one is running (S1).
    func press()
}

extension LoopCountdown: CountdownRow {
    public var kind: String { "Timer" }
}
