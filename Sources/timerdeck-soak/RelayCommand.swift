import ArgumentParser
import Foundation

/// `timerdeck-soak relay`: a fleet of headless timerdeck processes, each with its own outbox and
/// `instance` label, writing into Prometheus as the store straight, then through vmagent, then
/// through Prometheus in agent mode, while the relay and the store are each `kill -9`ed and
/// restarted. Each instance reads its batches back from the store before it counts them delivered,
/// unless `--unconfirmed`. Checks that every sample of every instance is readable by PromQL exactly once and
/// that the store refused nothing, and prints the paths side by side: samples lost and when, lag,
/// bytes per sample, the relay's disk use.
struct RelayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract:
            "Run a fleet into Prometheus straight, through vmagent and through Prometheus's agent, killing relay and store."
    )

    @Option(help: "Headless instances (processes, each with its own outbox and instance label).")
    var instances = 50

    @Option(help: "Simulated minutes of each instance (one round of processes each).")
    var minutes = 10

    @Option(help: "How many times the relay is killed during each run.")
    var relayKills = 5

    @Flag(help: "End the relay with SIGTERM, as a service manager does, instead of SIGKILL.")
    var gracefulRelay = false

    @Flag(
        help:
            "Trust the relay's acknowledgement: the instances do not read each batch back from the store (uploads.confirm_url)."
    )
    var unconfirmed = false

    @Option(help: "How many times the store is killed during each run.")
    var storeKills = 5

    @Option(help: "How much faster than real time the fleet's minutes pass (1: a real minute each).")
    var speed = 1.0

    @Option(help: "The paths to run, in turn: direct (no relay), vmagent, agent.")
    var relays: [FleetRelay.Kind] = FleetRelay.Kind.allCases

    @Option(help: "The timerdeck executable (default: the one built beside this program).")
    var timerdeck: String?

    @Option(help: "The seed of the kills' moments.")
    var seed: UInt64 = 1

    @Option(help: "The loopback ports of the store and of the relay.")
    var ports: [Int] = [19_190, 19_191]

    @Option(
        help:
            "The directory for the outboxes and the servers' data, kept (default: a fresh one under $TMPDIR, removed).")
    var directory: String?

    func validate() throws {
        guard (1...200).contains(instances) else { throw ValidationError("--instances takes 1…200 (got \(instances))") }
        guard (1...120).contains(minutes) else { throw ValidationError("--minutes takes 1…120 (got \(minutes))") }
        for (option, kills) in [("--relay-kills", relayKills), ("--store-kills", storeKills)]
        where !(0...minutes).contains(kills) {
            throw ValidationError("\(option) takes 0…the minutes, \(minutes) (got \(kills))")
        }
        guard (1...60).contains(speed) else { throw ValidationError("--speed takes 1…60 (got \(speed))") }
        guard ports.count == 2, ports.allSatisfy({ (1_024...65_535).contains($0) }) else {
            throw ValidationError("--ports takes two ports 1024…65535, the store's and the relay's")
        }
    }

    func run() throws {
        let program =
            timerdeck
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("timerdeck").path
        guard FileManager.default.isExecutableFile(atPath: program) else {
            throw ValidationError(
                "--timerdeck: \(program) is not an executable; build it (swift build -c release) or name it")
        }
        let scratch =
            directory.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("timerdeck-relay-\(getpid())")
        defer { if directory == nil { try? FileManager.default.removeItem(at: scratch) } }
        var random = SplitMix(seed: seed)
        var results: [RelayRun.Figures] = []
        for kind in relays {
            var run = RelayRun(
                kind: kind, instances: instances, minutes: minutes, kills: (relayKills, storeKills),
                graceful: gracefulRelay, confirmed: !unconfirmed, speed: speed,
                timerdeck: program,
                directory: scratch.appendingPathComponent(kind.rawValue), ports: (ports[0], ports[1]),
                random: random)
            results.append(try run.run())
            random = run.random
        }
        for line in RelayTable(results).lines { say(line) }
        if !results.allSatisfy(\.passed) { throw ExitCode(1) }
    }
}
