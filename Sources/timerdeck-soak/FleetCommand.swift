import ArgumentParser
import Foundation
import RunLoopKit
import TimeUnits
import Uploads

/// `timerdeck-soak fleet`: one process simulating a fleet. Every instance is its own
/// ``UploadPipeline`` with its own outbox (a real SQLite file) and its own remote-write sink
/// labelled `instance="deck-N"`; all run on one virtual clock, so a simulated day takes minutes, and
/// deliver into one real Prometheus. Reports the points stored and ingested per second, checks
/// every instance's every seq is stored and every outbox is empty.
struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Deliver a simulated day of many instances, each with its own outbox, into one Prometheus.")

    @Option(help: "Instances (each an outbox, a pipeline and an instance label).")
    var instances = 200

    @Option(help: "Simulated hours.")
    var hours = 24

    @Option(help: "Seconds between samples of each instance (uploads every 5 minutes).")
    var sampleInterval = 60

    @Option(help: "The loopback port Prometheus listens on.")
    var port = 19_090

    @Option(help: "The directory for the outboxes and the database (default: a fresh one under $TMPDIR, removed).")
    var directory: String?

    func run() throws {
        guard (1...1_000).contains(instances), (1...72).contains(hours), (1...3_600).contains(sampleInterval) else {
            throw ValidationError("--instances 1…1000, --hours 1…72, --sample-interval 1…3600")
        }
        let scratch = URL(fileURLWithPath: directory ?? NSTemporaryDirectory())
            .appendingPathComponent("timerdeck-fleet-\(getpid())", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let prometheus = try SoakPrometheus(directory: scratch.appendingPathComponent("prometheus"), port: port)
        let route = try shippedRoute()
        var settings = UploadPipeline.Settings()
        settings.sampleInterval = .seconds(sampleInterval)
        let loop = RunLoop(timeSource: .virtual(VirtualClock()))
        let pipelines = try (1...instances).map { index in
            UploadPipeline(
                loop: loop, outbox: try Outbox(url: scratch.appendingPathComponent("deck-\(index).sqlite")),
                sampler: route,
                sink: try HTTPSink(
                    endpoint: prometheus.endpoint, timeout: .seconds(30),
                    format: .remoteWrite(try RemoteWrite(instance: "deck-\(index)"))),
                settings: settings)
        }
        say(
            "\(instances) instances, \(hours) h simulated, a sample every \(sampleInterval) s, Prometheus \(prometheus.endpoint)"
        )
        let wall = ContinuousClock()
        let started = wall.now
        for pipeline in pipelines { pipeline.start() }
        let end = Instant.zero + .seconds(hours * 3_600) + settings.sampleInterval / 2
        for hour in 1...hours {
            loop.run(mode: .default, until: min(Instant.zero + .seconds(hour * 3_600), end))
            say("hour \(hour): \(String(format: "%.0f", milliseconds(started.duration(to: wall.now)) / 1_000)) s")
        }
        loop.run(mode: .default, until: end)
        let left = pipelines.reduce(0) { $0 + $1.flush() }
        let elapsed = started.duration(to: wall.now)
        try report(pipelines, route: route.points, prometheus: prometheus, left: left, elapsed: elapsed)
    }

    /// Prints the figures and fails unless every point of every instance is stored and every outbox is empty.
    private func report(
        _ pipelines: [UploadPipeline], route: [TrackPoint], prometheus: SoakPrometheus, left: Int, elapsed: Duration
    ) throws {
        var taken: [String: Int64] = [:]
        for (index, pipeline) in pipelines.enumerated() {
            taken["deck-\(index + 1)"] = try pipeline.outbox.counters().lastSample?.seq ?? 0
        }
        let expected = taken.values.reduce(0) { $0 + routePoints(samples: $1, route: route) }
        let at = Date(
            timeIntervalSince1970: Nanoseconds.seconds(VirtualClock().now(.wall).nanoseconds)
                + Double(hours * 3_600 + 1))
        let window = "\(hours + 1)h"
        let stored = try prometheus.query("count_over_time(timerdeck_sample_seq[\(window)])", at: at)
        let highest = try prometheus.query("max_over_time(timerdeck_sample_seq[\(window)])", at: at)
        // A range function drops the metric name, so one sum per series name.
        let points = try routeSeriesNames.reduce(0.0) { total, name in
            total + (try prometheus.query("sum(count_over_time(\(name)[\(window)]))", at: at).first?.value ?? 0)
        }
        let appended = try prometheus.samplesAppended()
        let storedByInstance = Dictionary(stored.map { ($0.labels["instance"] ?? "", Int64($0.value)) }) { $1 }
        let highestByInstance = Dictionary(highest.map { ($0.labels["instance"] ?? "", Int64($0.value)) }) { $1 }
        let samples = taken.values.reduce(0, +)
        let complete = taken.filter { storedByInstance[$0.key] == $0.value && highestByInstance[$0.key] == $0.value }
        let lost = Double(expected) - points
        let seconds = milliseconds(elapsed) / 1_000
        say(
            String(
                format:
                    "samples %lld, points expected %d, stored %.0f (appended %.0f); %.1f s: %.0f points/s ingested, "
                    + "%.0f samples/s", samples, expected, points, appended, seconds, points / seconds,
                Double(samples) / seconds))
        say(
            "instances complete \(complete.count)/\(taken.count), points lost \(Int(lost)), "
                + "samples left in the outboxes \(left)")
        if complete.count != taken.count || lost != 0 || left != 0 { throw ExitCode(1) }
    }
}
