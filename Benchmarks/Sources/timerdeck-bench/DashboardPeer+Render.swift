import RunLoopKit

extension DashboardPeer {
    /// The ticker's display link rate the dashboard starts with (Resources/timerdeck.toml).
    static let tickerFramesPerSecond = 60
    /// Output this long after the previous output starts a new screen update (a 60 fps frame is 16.7 ms).
    static let frameGap: Int64 = 4_000_000

    /// Reads the terminal for `duration` while the ticker animates: bytes per screen update and CPU.
    static func rendering(_ session: DashboardSession, duration: Duration) -> DashboardRenderResult {
        let terminal = session.terminal
        terminal.readAvailable()
        let before = TaskCounters(pid: session.pid)
        let start = monotonicNanoseconds()
        let end = start + duration.nanoseconds
        var frames = 0
        var bytes = 0
        var lastOutput = Int64.min / 2
        while monotonicNanoseconds() < end {
            guard terminal.waitForOutput(timeout: end - monotonicNanoseconds()) else { continue }
            let now = monotonicNanoseconds()
            let count = terminal.readAvailable()
            guard count > 0 else { continue }
            if now - lastOutput >= frameGap { frames += 1 }
            lastOutput = now
            bytes += count
        }
        let elapsed = monotonicNanoseconds() - start
        let difference = TaskCounters(pid: session.pid).since(before)
        return DashboardRenderResult(
            peer: name, scene: "ticker-\(tickerFramesPerSecond)fps", seconds: Nanoseconds.seconds(elapsed),
            framesPerSecond: tickerFramesPerSecond, frames: frames, bytes: bytes,
            bytesPerFrame: frames > 0 ? Double(bytes) / Double(frames) : 0,
            writesPerFrame: frames > 0 ? Double(difference.writeCalls) / Double(frames) : 0,
            cpuPercent: Double(difference.cpuNanoseconds) * 100 / Double(elapsed),
            wakeUpsPerSecond: Double(difference.wakeUps) / Nanoseconds.seconds(elapsed))
    }
}
