extension DashboardPeer {
    /// How long a key may go unanswered before it counts as lost.
    static let keyTimeout: Int64 = 5_000_000_000
    /// A screen update is over when the terminal has been quiet this long.
    static let updateQuiet: Int64 = 10_000_000

    /// Types `keys` keys (`↓`, `↑`, … on the SMS panel: each moves the selection) one at a time and
    /// measures from the write to the first byte of the screen update that answers it.
    ///
    /// Every timer must be paused, so that whatever comes back is the answer to the key.
    static func inputLatency(_ session: DashboardSession, keys: Int, scene: String = "input") -> InputLatencyResult {
        let terminal = session.terminal
        var latencies: [Int64] = []
        latencies.reserveCapacity(keys)
        for index in 0..<keys {
            let key: DashboardSession.Key = index.isMultiple(of: 2) ? .down : .up
            terminal.readAvailable()
            let written = monotonicNanoseconds()
            terminal.write(key.bytes)
            if terminal.waitForOutput(timeout: keyTimeout) {
                latencies.append(monotonicNanoseconds() - written)
            }
            terminal.drain(untilQuietFor: updateQuiet, limit: keyTimeout)
        }
        let distribution = Distribution(latencies)
        return InputLatencyResult(
            peer: name, scene: scene, keys: keys, answered: latencies.count,
            p50Microseconds: Double(distribution.percentile(0.5)) / 1_000,
            p99Microseconds: Double(distribution.percentile(0.99)) / 1_000,
            maxMicroseconds: Double(distribution.max) / 1_000)
    }
}
