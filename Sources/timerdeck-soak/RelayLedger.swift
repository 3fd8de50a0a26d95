import Foundation
import Synchronization

/// What the relay soak watches while the fleet runs, ten times a second on a thread of its own:
/// the store's highest `seq` of each instance (for the lag) and the relay's disk use; and the
/// relay's byte counters across its lives, read before each kill and at the end (its listener
/// counts the reads too, so they are few).
final class RelayLedger: Sendable {
    /// A wait for an instance's `seq` to be readable: since when its batch was acknowledged.
    private struct Awaited {
        let instance: String
        let seq: Int64
        let since: ContinuousClock.Instant
    }

    /// A counter of a server that restarts from zero in each life.
    private struct LifeCounter {
        var earlierLives = 0.0
        var thisLife = 0.0
        var total: Double { earlierLives + thisLife }
    }

    private struct State {
        var stored: [String: Int64] = [:]
        var awaited: [Awaited] = []
        var lags: [Duration] = []
        var sent = LifeCounter()
        var received = LifeCounter()
        var diskPeak: Int64 = 0
        var relayReadings = 0
        var watching = true
    }

    private let state = Mutex(State())
    private let storeQuery: URL
    private let horizon: Date
    private let relayMetrics: URL?
    private let sentMetric: String?
    private let receivedMetric: String?
    private let disk: URL?
    private let done = DispatchSemaphore(value: 0)

    /// Watches the store at `storeQuery` (its `/api/v1/query`), asking it at the time `horizon`
    /// (the fleet's last sample, or later), and the relay `server`, if any, until ``finish()``.
    init(storeQuery: URL, horizon: Date, server: FleetRelay.Server?) {
        self.storeQuery = storeQuery
        self.horizon = horizon
        relayMetrics = server?.metrics
        sentMetric = server?.sentBytesMetric
        receivedMetric = server?.receivedBytesMetric
        disk = server?.disk
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.watching }) {
                look()
                usleep(100_000)
            }
            done.signal()
        }
    }

    /// Waits for `seq` of `instance` in the store, its batch acknowledged at `since`.
    func expect(_ seq: Int64, of instance: String, since: ContinuousClock.Instant) {
        state.withLock { $0.awaited.append(Awaited(instance: instance, seq: seq, since: since)) }
    }

    /// Reads the relay's counters once more, just before it is killed, and starts its next life's at zero.
    func relayWillDie() {
        readRelay()
        state.withLock { state in
            state.sent.earlierLives = state.sent.total
            state.sent.thisLife = 0
            state.received.earlierLives = state.received.total
            state.received.thisLife = 0
        }
    }

    /// The store's highest `seq` of each instance at the last look.
    var stored: [String: Int64] { state.withLock { $0.stored } }

    /// Stops watching and gives the figures: the lags, and the relay's bytes sent and received and
    /// its peak disk use (nil without a relay, a counter, or a reading of its metrics).
    func finish() -> (lags: [Duration], sent: Double?, received: Double?, diskPeak: Int64?) {
        state.withLock { $0.watching = false }
        done.wait()
        readRelay()
        return state.withLock { state in
            let read = state.relayReadings > 0
            return (
                state.lags, sentMetric.flatMap { _ in read ? state.sent.total : nil },
                receivedMetric.flatMap { _ in read ? state.received.total : nil }, disk.map { _ in state.diskPeak }
            )
        }
    }

    private func look() {
        let now = ContinuousClock.now
        // The store does not answer during its outages; one that never answers again fails the
        // run's final count, which throws.
        if let highest = try? SoakPrometheus.query(
            "max by (instance) (max_over_time(timerdeck_sample_seq[1d]))", at: max(horizon, Date()), on: storeQuery)
        {
            state.withLock { state in
                for series in highest { state.stored[series.labels["instance"] ?? ""] = Int64(series.value) }
                let (arrived, waiting) = state.awaited.reduce(into: ([Awaited](), [Awaited]())) { split, awaited in
                    if (state.stored[awaited.instance] ?? 0) >= awaited.seq {
                        split.0.append(awaited)
                    } else {
                        split.1.append(awaited)
                    }
                }
                state.lags += arrived.map { $0.since.duration(to: now) }
                state.awaited = waiting
            }
        }
        if let disk {
            let used = Self.bytes(under: disk)
            state.withLock { $0.diskPeak = max($0.diskPeak, used) }
        }
    }

    /// The relay's byte counters, unless it is down (killed, or not yet started again).
    private func readRelay() {
        guard let relayMetrics, let sentMetric, let text = try? String(contentsOf: relayMetrics, encoding: .utf8) else {
            return
        }
        let sent = metricSum(sentMetric, in: text)
        let received = receivedMetric.map { metricSum($0, in: text) } ?? 0
        state.withLock { state in
            state.relayReadings += 1
            state.sent.thisLife = max(state.sent.thisLife, sent)
            state.received.thisLife = max(state.received.thisLife, received)
        }
    }

    /// The bytes of the files under `directory` (a file the relay removes while they are counted counts 0).
    static func bytes(under directory: URL) -> Int64 {
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey])
        else { return 0 }
        return files.compactMap { ($0 as? URL).flatMap { try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize } }
            .reduce(0) { $0 + Int64($1) }
    }
}
