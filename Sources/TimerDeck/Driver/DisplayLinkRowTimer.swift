import RunLoopKit

/// The ticker row: a display link (S3). Stopping takes it out of its mode and keeps it; `x`
/// invalidates it and the next start makes a new one.
final class DisplayLinkRowTimer: MovableRowTimer {
    private unowned let loop: RunLoop
    private let refreshRate: Int
    /// The row's name, which the link's frames carry in the loop's metrics.
    private let name: String
    private let onFire: (Fire) -> Void
    private var link: DisplayLink?
    /// The mode it is scheduled in, while scheduled.
    private var scheduledMode: RunLoop.Mode?
    private var frameRate = FrameRateMeter()

    init(loop: RunLoop, refreshRate: Int, name: String, onFire: @escaping (Fire) -> Void) {
        self.loop = loop
        self.refreshRate = refreshRate
        self.name = name
        self.onFire = onFire
    }

    func start(for row: RowState) {
        let mode = row.mode ?? .default
        let link = self.link ?? makeLink(frameInterval: row.ticker?.frameInterval ?? 1)
        link.isPaused = false
        link.add(to: loop, forMode: mode)
        scheduledMode = mode
    }

    func stop() {
        if let link, let scheduledMode { link.remove(from: loop, forMode: scheduledMode) }
        scheduledMode = nil
    }

    func suspend() { link?.isPaused = true }

    func resume() { link?.isPaused = false }

    func move(to mode: RunLoop.Mode) {
        guard let link, let old = scheduledMode else { return }
        link.move(in: loop, from: old, to: mode)
        scheduledMode = mode
    }

    func invalidate() {
        link?.invalidate()
        link = nil
        frameRate.reset()
        scheduledMode = nil
    }

    /// Sets the link's frame interval (it keeps it across stops).
    func setFrameInterval(_ interval: Int) {
        link?.frameInterval = interval
    }

    var nextFire: Instant? {
        guard let link, scheduledMode != nil, !link.isPaused else { return nil }
        return link.targetTimestamp
    }

    /// Callbacks per second, measured.
    var framesPerSecond: Double { frameRate.framesPerSecond }

    private func makeLink(frameInterval: Int) -> DisplayLink {
        let link = DisplayLink(refreshRate: refreshRate) { [weak self] link in self?.deliver(link) }
        link.frameInterval = frameInterval
        link.metricsName = name
        self.link = link
        return link
    }

    private func deliver(_ link: DisplayLink) {
        frameRate.record(loop.now)
        onFire(
            .frame(
                time: loop.now, mode: loop.currentMode, timestamp: link.timestamp, duration: link.duration,
                skippedFrames: link.skippedFrames))
    }
}
