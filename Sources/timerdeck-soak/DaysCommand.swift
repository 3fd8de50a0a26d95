import ArgumentParser
import Foundation
import Uploads

/// `timerdeck-soak days` (the default): the upload pipeline for simulated days (virtual clock) against
/// the loopback collector, with real SQLite and real HTTP; prints per-day figures and checks every seq
/// arrived once.
struct DaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "days",
        abstract:
            "Run the upload pipeline for simulated days and report per-sample cost, status query cost and outbox size.")

    @Option(help: "Simulated days (5 s samples, an upload every 5 minutes).")
    var days = 30

    @Option(help: "Days of acknowledged samples the outbox keeps.")
    var keep = 7

    @Option(help: "The directory for the outbox (default: a fresh one under $TMPDIR, removed afterwards).")
    var directory: String?

    func run() throws {
        guard (1...365).contains(days), (1...365).contains(keep) else {
            throw ValidationError("--days and --keep must be 1…365 (got \(days) and \(keep))")
        }
        let scratch = URL(fileURLWithPath: directory ?? NSTemporaryDirectory())
            .appendingPathComponent("timerdeck-soak-\(getpid())", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let collector = try SoakCollector(lifetime: 86_400)
        let outbox = try Outbox(
            url: scratch.appendingPathComponent("outbox.sqlite"),
            retention: OutboxRetention(age: .seconds(Int64(keep) * 86_400), count: nil))
        let route = try shippedRoute()
        let soak = UploadSoak(
            outbox: outbox, sampler: route, sink: try HTTPSink(endpoint: collector.endpoint, timeout: .seconds(30)))
        say("outbox \(outbox.url.path), retention \(keep) days, collector \(collector.endpoint)")
        say("day  samples   per-sample  status-query  database   file       log        pending  unsaved")
        let left = try soak.run(days: days) { day in
            let samples = day.counters.lastSample?.seq ?? 0
            say(
                String(
                    format: "%3d  %7lld  %8.3f ms  %9.3f ms  %7.1f MB  %7.1f MB  %7.1f MB  %7d  %7d",
                    day.day, samples, milliseconds(day.sampleCost), milliseconds(day.statusQuery),
                    Self.megabytes(day.databaseSize), Self.megabytes(day.fileSize), Self.megabytes(day.logSize),
                    day.counters.pendingSamples, day.unsaved))
        }
        let received = try collector.received()
        let last = try outbox.counters().lastSample?.seq ?? 0
        let everySeqOnce = received.seqs == Array(1...max(last, 1))
        say(
            "samples \(last), left in the outbox \(left), collector: \(received.seqs.count) seqs in \(received.requests) requests, "
                + "\(received.duplicates) duplicate batches, \(received.truncated) truncated; every seq once: \(everySeqOnce ? "yes" : "NO")"
        )
        if !everySeqOnce || left != 0 { throw ExitCode(1) }
    }

    private static func megabytes(_ bytes: Int64) -> Double {
        Double(bytes) / 1_048_576
    }
}
