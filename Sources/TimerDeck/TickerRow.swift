import Glibc
import RunLoopKit

/// The frame ticker (S3): a display link driving the ripple animation, in the default mode by
/// default so that it pauses while the log is scrolled, as the seed recommends (M4).
public final class TickerRow: DeckTimer {
    /// Extra time each callback takes while the slow load is on: longer than a frame, so frames skip (D3).
    public static let slowLoad: Duration = .milliseconds(40)

    public let name = "ticker"
    private unowned let loop: RunLoop
    private let refreshRate: Int
    private let record: (FireRecord) -> Void
    private let changed: () -> Void
    private var link: DisplayLink?
    private var frameInterval = 1
    private(set) var mode: RunLoop.Mode
    private var isScheduled = false
    private var wasInvalidated = false
    private var lastSkipped = 0
    /// Whether each callback takes ``slowLoad`` extra.
    public private(set) var isSlow = false
    /// The animation frame to show: the vsync slot of the last callback.
    public private(set) var frame = 0
    public private(set) var lastLateness: Duration?

    init(refreshRate: Int, mode: RunLoop.Mode, loop: RunLoop,
         record: @escaping (FireRecord) -> Void, changed: @escaping () -> Void) {
        self.refreshRate = refreshRate
        self.mode = mode
        self.loop = loop
        self.record = record
        self.changed = changed
    }

    public var mechanism: String { "DisplayLink \(refreshRate)/\(frameInterval)" + (isSlow ? " slow" : "") }
    public var modes: [RunLoop.Mode]? { [mode] }
    public var nextFire: Instant? { isScheduled && !(link?.isPaused ?? true) ? link?.targetTimestamp : nil }
    public var missedTicks: Int { link?.skippedFrames ?? 0 }
    /// Callbacks per second, measured.
    public var measuredFPS: Double { link?.measuredFramesPerSecond ?? 0 }

    public var baseState: DeckTimerState {
        if wasInvalidated { return .invalid }
        guard isScheduled, let link else { return .idle }
        return link.isPaused ? .suspended : .running
    }

    /// Starts the animation (the dashboard does this at launch).
    public func start() {
        let link = self.link ?? makeLink()
        link.add(to: loop, forMode: mode)
        isScheduled = true
        wasInvalidated = false
        changed()
    }

    public func startOrStop() {
        if isScheduled, let link {
            link.remove(from: loop, forMode: mode)
            isScheduled = false
            changed()
        } else {
            start()
        }
    }

    public func suspendOrResume() {
        guard let link, isScheduled else { return }
        link.isPaused.toggle()
        changed()
    }

    public func moveToNextMode() -> Bool {
        let old = mode
        mode = mode.nextInCycle
        if isScheduled, let link {
            link.remove(from: loop, forMode: old)
            link.add(to: loop, forMode: mode)
        }
        changed()
        return true
    }

    /// `f`: draws the next animation frame now, outside the link's schedule.
    public func fireNow() {
        frame += 1
        changed()
    }

    public func invalidate() {
        link?.invalidate()
        link = nil
        isScheduled = false
        wasInvalidated = true
        changed()
    }

    /// Applies `.frameIntervalUp`, `.frameIntervalDown` or `.toggleSlowLoad`.
    public func adjust(_ command: Command) {
        switch command {
        case .frameIntervalUp: frameInterval = min(frameInterval + 1, 12)
        case .frameIntervalDown: frameInterval = max(frameInterval - 1, 1)
        case .toggleSlowLoad: isSlow.toggle()
        default: return
        }
        link?.frameInterval = frameInterval
        changed()
    }

    private func makeLink() -> DisplayLink {
        let link = DisplayLink(refreshRate: refreshRate) { [weak self] link in self?.tick(link) }
        link.frameInterval = frameInterval
        self.link = link
        lastSkipped = 0
        return link
    }

    private func tick(_ link: DisplayLink) {
        let lateness = link.timestamp.duration(to: loop.now)
        lastLateness = lateness
        frame = Int(link.timestamp.nanoseconds / max(link.duration.nanoseconds, 1))
        // Only frames after a skip go to the log; 60 entries a second would bury every other timer.
        if link.skippedFrames > lastSkipped {
            record(FireRecord(time: loop.now, timer: name, mode: loop.currentMode, lateness: lateness,
                              ticks: link.skippedFrames - lastSkipped + 1))
            lastSkipped = link.skippedFrames
        }
        if isSlow { work(for: Self.slowLoad) }
        changed()
    }

    /// Makes the callback take `duration`: simulated on a virtual clock, really on the system clock.
    private func work(for duration: Duration) {
        if let clock = loop.clock.virtualClock {
            clock.busy(duration)
        } else {
            var request = timespec(tv_sec: 0, tv_nsec: Int(duration.nanoseconds))
            nanosleep(&request, nil)
        }
    }
}
