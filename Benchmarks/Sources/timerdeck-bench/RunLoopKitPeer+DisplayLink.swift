import RunLoopKit

extension RunLoopKitPeer {
    /// The display link's row in the lateness table.
    static let displayLinkName = "RunLoopKit DisplayLink"

    /// Runs a `DisplayLink` at `refreshRate` Hz for `duration` ns and measures each callback's
    /// lateness against its vsync (`timestamp`, a point of the link's grid). Grid slots are the
    /// refreshes in the window, so a skipped frame shows as delivered < slots.
    static func displayLink(refreshRate: Int, duration: Int64) -> LatenessResult {
        let loop = RunLoop()
        var lateness: [Int64] = []
        lateness.reserveCapacity(Int(duration * Int64(refreshRate) / Nanoseconds.perSecond) + 16)
        var end = Int64.max
        let link = DisplayLink(refreshRate: refreshRate) { link in
            let now = monotonicNanoseconds()
            lateness.append(now - link.timestamp.nanoseconds)
            if now >= end { loop.stop() }
        }
        // The link's grid starts at the loop's `now` when it is added.
        end = loop.now.nanoseconds + duration
        link.add(to: loop, forMode: .default)
        loop.run(mode: .default, until: .distantFuture)
        link.invalidate()
        let distribution = Distribution(lateness)
        return LatenessResult(
            peer: displayLinkName, intervalMicroseconds: 1e6 / Double(refreshRate),
            p50Microseconds: Double(distribution.percentile(0.5)) / 1_000,
            p99Microseconds: Double(distribution.percentile(0.99)) / 1_000,
            maxMicroseconds: Double(distribution.max) / 1_000,
            delivered: lateness.count, gridSlots: Int(duration * Int64(refreshRate) / Nanoseconds.perSecond))
    }
}
