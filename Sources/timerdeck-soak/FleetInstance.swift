import Foundation
import LocalServers
import Uploads

/// One instance of the relay soak's fleet: its own directory, outbox and config (`instance =
/// "deck-N"`, a sample every 5 s, a batch every 20 s), run as `timerdeck --headless` one simulated
/// minute at a time, as a machine's timerdeck that is restarted now and then would be.
struct FleetInstance {
    /// The samples an instance takes in a simulated minute (one every 5 s).
    static let samplesPerMinute = 12

    /// Its `instance` label.
    let name: String
    let directory: URL

    /// Makes the instance's directory and config under `parent`.
    init(index: Int, under parent: URL) throws {
        name = "deck-\(index)"
        directory = parent.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = """
            [uploads]
            instance = "\(name)"
            retry_base = "1s"
            retry_cap = "10s"
            confirm_within = "5s"
            flush_timeout = "10s"

            [[timers]]
            name = "sampler"
            drives = "samples"
            interval = "5s"
            mode = "common"

            [[timers]]
            name = "uploader"
            drives = "uploads"
            interval = "20s"
            mode = "common"

            """
        try config.write(to: directory.appendingPathComponent("timerdeck.toml"), atomically: true, encoding: .utf8)
    }

    /// Its outbox.
    var outbox: URL { directory.appendingPathComponent("outbox.sqlite") }

    /// Starts `timerdeck` for `seconds` of simulated time from the wall-clock time `start`,
    /// uploading to `endpoint` and, with a `store`, reading each batch back there (and sending one
    /// that failed twice to the store's own receiver); its output is appended to `output.log` in its
    /// directory, and `exited` gets its exit status.
    func run(
        _ timerdeck: String, from start: Date, seconds: Int, endpoint: String, store: (any LoopbackServer)?,
        exited: @escaping @Sendable (Int32) -> Void
    ) throws {
        let script = directory.appendingPathComponent("script.txt")
        let wall = ISO8601DateFormatter().string(from: start)
        try "wall \(wall)\n\(seconds > 0 ? "wait \(seconds)s\n" : "")quit\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("output.log")
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: timerdeck)
        var arguments = [
            "--headless", "--config", directory.appendingPathComponent("timerdeck.toml").path, "--script", script.path,
            "--outbox", outbox.path, "--upload-url", "prometheus+" + endpoint,
        ]
        if let store {
            arguments += [
                "--upload-confirm-url", store.url("").absoluteString, "--upload-fallback-url",
                "prometheus+" + store.endpoint,
            ]
        }
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = output
        process.terminationHandler = { exited($0.terminationStatus) }
        try process.run()
        try? output.close()
    }

    /// What its outbox holds: the samples taken, and those not yet acknowledged.
    func counters() throws -> (taken: Int64, pending: Int) {
        let counters = try Outbox(url: outbox).counters()
        return (counters.lastSample?.seq ?? 0, counters.pendingSamples)
    }
}
