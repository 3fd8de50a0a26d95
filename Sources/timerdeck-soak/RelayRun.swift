import Foundation
import LocalServers
import Synchronization
import Uploads

/// One run of the relay soak: a fleet of headless instances writing through one relay (or straight)
/// into a store, the store killed (`SIGKILL`) and the relay killed or stopped (`SIGTERM`) and each
/// restarted during the run, then every instance's samples looked for in the store by PromQL.
///
/// The fleet's time is the real time: round `k` starts `k` simulated minutes after the start,
/// divided by `speed`, and every instance runs minute `k` of its life in it (`wall` at that
/// minute), so its samples carry the times a fleet running then would give them.
struct RelayRun {
    let kind: FleetRelay.Kind
    let instances: Int
    let minutes: Int
    let kills: (relay: Int, store: Int)
    /// Whether the relay is stopped with `SIGTERM` instead of killed.
    let graceful: Bool
    /// Whether the instances read each batch back from the store before counting it delivered.
    let confirmed: Bool
    let speed: Double
    let timerdeck: String
    let directory: URL
    let ports: (store: Int, relay: Int)
    var random: SplitMix

    /// What one run measured.
    struct Figures {
        let kind: FleetRelay.Kind
        let instances: Int
        /// How the relay was ended in its outages.
        var relayEnd = "—"
        /// What an instance counts as delivered.
        var acknowledgement = "—"
        /// The minutes (from 1) in which the relay and the store were killed.
        var relayKilled: [Int] = []
        var storeKilled: [Int] = []
        var samples: Int64 = 0
        var exactlyOnce = 0
        var lost: Int64 = 0
        /// The samples lost, by the minute (from 1) of the instance's life they were taken in.
        var lostByMinute: [Int: Int64] = [:]
        var pointsExpected = 0
        var pointsStored = 0.0
        var storeRefusals = 0
        var relayErrors: Int?
        var failedRuns = 0
        var lags: [Duration] = []
        var bytesIn: Double?
        var bytesOut: Double?
        var diskPeak: Int64?
        var elapsed = Duration.zero

        /// Whether every sample of every instance is stored once, none lost and nothing refused.
        var passed: Bool {
            exactlyOnce == instances && lost == 0 && pointsStored == Double(pointsExpected) && storeRefusals == 0
                && failedRuns == 0
        }
    }

    mutating func run() throws -> Figures {
        let clock = ContinuousClock()
        let began = clock.now
        var figures = Figures(kind: kind, instances: instances)
        // The store takes samples up to an hour older than a series' newest, as the manual advises
        // for a relay: a relay that sends a block again after a restart then stores it once.
        let store = try SoakPrometheus(
            directory: directory.appendingPathComponent("store"), port: ports.store, outOfOrderWindow: "1h")
        let relay = try FleetRelay(
            kind, directory: directory.appendingPathComponent(kind.rawValue), port: ports.relay, store: store.endpoint)
        let fleet = try (1...instances).map {
            try FleetInstance(index: $0, under: directory.appendingPathComponent("fleet"))
        }
        let start = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let horizon = start.addingTimeInterval(Double(minutes * 60 + 60))
        let ledger = RelayLedger(storeQuery: store.server.url("/api/v1/query"), horizon: horizon, server: relay.server)
        let roundLength = Duration.seconds(60 / speed)
        let relayRounds = relay.server == nil ? [] : Self.spread(kills.relay, over: minutes, offset: 0)
        let storeRounds = Self.spread(kills.store, over: minutes, offset: 0.5)
        figures.relayKilled = relayRounds.sorted().map { $0 + 1 }
        if relay.server != nil { figures.relayEnd = graceful ? "SIGTERM" : "SIGKILL" }
        let readBack: (any LoopbackServer)? = confirmed ? store.server : nil
        figures.acknowledgement = confirmed ? "read back from the store" : "the receiver's 2xx"
        figures.storeKilled = storeRounds.sorted().map { $0 + 1 }
        say(
            "\(kind.rawValue): \(instances) instances, \(minutes) simulated minutes at \(speed)×, writing to \(relay.endpoint)"
                + (readBack.map { ", reading back from \($0.url(""))" } ?? "")
        )
        for round in 0..<minutes {
            pause(until: began + roundLength * round)
            var disruptions: [() -> Void] = []
            if relayRounds.contains(round), let server = relay.server {
                let end = graceful ? server.stop : server.kill
                disruptions.append(
                    outage(after: random.next(upTo: 2), down: 2, "relay") {
                        ledger.relayWillDie()
                        end()
                    } start: {
                        try server.start()
                    })
            }
            if storeRounds.contains(round) {
                disruptions.append(
                    outage(after: random.next(upTo: 2), down: 3, "store") {
                        store.server.kill()
                    } start: {
                        try store.server.start()
                    })
            }
            figures.failedRuns += try runRound(
                fleet, from: start.addingTimeInterval(Double(round * 60)), seconds: 60, relay: relay, store: readBack,
                ledger: ledger, meanwhile: disruptions)
            say("  minute \(round + 1): \(ledger.stored.values.reduce(0, +)) samples readable")
        }
        // What an instance still holds goes on its next start: a start that takes no sample. Until
        // none holds any, or three starts in a row deliver nothing.
        var stalled = 0
        var held = try fleet.map { try $0.counters() }
        while held.contains(where: { $0.pending > 0 }), stalled < 3 {
            let holders = zip(fleet, held).filter { $1.pending > 0 }.map(\.0)
            figures.failedRuns += try runRound(
                holders, from: start.addingTimeInterval(Double(minutes * 60)), seconds: 0, relay: relay,
                store: readBack,
                ledger: ledger)
            let now = try fleet.map { try $0.counters() }
            stalled = now.map(\.pending).reduce(0, +) < held.map(\.pending).reduce(0, +) ? 0 : stalled + 1
            held = now
            Thread.sleep(forTimeInterval: 1)
        }
        let taken = Dictionary(uniqueKeysWithValues: zip(fleet.map(\.name), held.map(\.taken)))
        // What the instances had acknowledged, the relay still forwards: wait until the store has
        // it, or it has shown nothing new for 30 s.
        let acknowledged = zip(fleet, held).filter { $1.pending == 0 }.map(\.0.name)
        var lastChange = (clock.now, ledger.stored)
        while acknowledged.contains(where: { ledger.stored[$0] != taken[$0] }),
            lastChange.0.duration(to: clock.now) < .seconds(30)
        {
            Thread.sleep(forTimeInterval: 0.2)
            if ledger.stored != lastChange.1 { lastChange = (clock.now, ledger.stored) }
        }
        let watched = ledger.finish()
        (figures.lags, figures.bytesOut, figures.bytesIn, figures.diskPeak) = watched
        try count(taken, in: store, at: max(horizon, Date()), into: &figures)
        figures.storeRefusals = try Self.lines(of: store.server.log) {
            $0.contains("out of order") || $0.contains("duplicate sample") || $0.contains("out of bounds")
                || $0.contains("too old")
        }
        figures.relayErrors = try relay.server.map { server in try Self.lines(of: server.log) { $0.contains("error") } }
        figures.elapsed = began.duration(to: clock.now)
        return figures
    }

    /// Runs every instance of `fleet` at once for `seconds` from `start`, reading back from `store` if
    /// given, doing `meanwhile` in turn
    /// while they run. As each exits, the ledger waits for its last `seq` in the store when it
    /// left none unacknowledged. Gives how many did not exit 0.
    private func runRound(
        _ fleet: [FleetInstance], from start: Date, seconds: Int, relay: FleetRelay, store: (any LoopbackServer)?,
        ledger: RelayLedger, meanwhile: [() -> Void] = []
    ) throws -> Int {
        let failed = Mutex(0)
        let running = DispatchGroup()
        for instance in fleet {
            running.enter()
            try instance.run(timerdeck, from: start, seconds: seconds, endpoint: relay.endpoint, store: store) {
                status in
                let exit = ContinuousClock.now
                if status != 0 { failed.withLock { $0 += 1 } }
                // An outbox that cannot be read fails the run at its next read, after the round.
                if let (taken, pending) = try? instance.counters(), pending == 0, taken > 0 {
                    ledger.expect(taken, of: instance.name, since: exit)
                }
                running.leave()
            }
        }
        for disruption in meanwhile { disruption() }
        running.wait()
        return failed.withLock { $0 }
    }

    /// `count` rounds of `minutes`, evenly apart, the first `offset` of a step in.
    private static func spread(_ count: Int, over minutes: Int, offset: Double) -> Set<Int> {
        guard count > 0 else { return [] }
        let step = Double(minutes) / Double(count)
        return Set((0..<count).map { Int(Double($0) * step + offset * step) % minutes })
    }

    /// Blocks the thread until `instant`.
    private func pause(until instant: ContinuousClock.Instant) {
        let left = ContinuousClock.now.duration(to: instant)
        if left > .zero { Thread.sleep(forTimeInterval: milliseconds(left) / 1_000) }
    }

    /// An outage of a server: killed `after` seconds, started again `down` seconds later.
    private func outage(
        after: Double, down: Double, _ what: String, kill: @escaping () -> Void, start: @escaping () throws -> Void
    ) -> () -> Void {
        {
            usleep(useconds_t(after * 1_000_000))
            kill()
            usleep(useconds_t(down * 1_000_000))
            do { try start() } catch { say("  the \(what) did not start again: \(error)") }
        }
    }

    /// Reads back each instance's `seq` series and every point of the fleet from the store, asking at `now`.
    private func count(
        _ taken: [String: Int64], in store: SoakPrometheus, at now: Date, into figures: inout Figures
    ) throws {
        let route = try shippedRoute().points
        let stored = try store.query("count_over_time(timerdeck_sample_seq[1d])", at: now)
        let highest = try store.query("max_over_time(timerdeck_sample_seq[1d])", at: now)
        let storedBy = Dictionary(stored.map { ($0.labels["instance"] ?? "", Int64($0.value)) }) { $1 }
        let highestBy = Dictionary(highest.map { ($0.labels["instance"] ?? "", Int64($0.value)) }) { $1 }
        figures.samples = taken.values.reduce(0, +)
        figures.exactlyOnce = taken.filter { storedBy[$0.key] == $0.value && highestBy[$0.key] == $0.value }.count
        figures.lost = taken.reduce(0) { $0 + max(0, $1.value - (storedBy[$1.key] ?? 0)) }
        for (instance, samples) in taken where storedBy[instance] != samples {
            let seqs = try store.query("timerdeck_sample_seq{instance=\"\(instance)\"}[1d]", values: now)
            for seq in Set(1...samples).subtracting(seqs) {
                figures.lostByMinute[Int(seq - 1) / FleetInstance.samplesPerMinute + 1, default: 0] += 1
            }
        }
        figures.pointsExpected = taken.values.reduce(0) { $0 + routePoints(samples: $1, route: route) }
        figures.pointsStored = try routeSeriesNames.reduce(0.0) { total, name in
            total + (try store.query("sum(count_over_time(\(name)[1d]))", at: now).first?.value ?? 0)
        }
    }

    /// How many lines of the file `log` satisfy `matches`.
    private static func lines(of log: URL, where matches: (Substring) -> Bool) throws -> Int {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter(matches).count
    }
}

/// A small seeded generator (SplitMix64), so a run's kill moments can be replayed with its seed.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A number in `0..<bound`.
    mutating func next(upTo bound: Double) -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53) * bound
    }
}
