import AppPlatform
import Glibc
import RunLoopKit
import Uploads

import class Foundation.FileManager
import class Foundation.ProcessInfo
import class Foundation.Thread
import struct Foundation.URL

/// The upload pipeline's parts, opened and checked before the dashboard starts: the outbox, the
/// sampler and the sink chosen by the config and the command line.
package final class UploadsSetup {
    /// The durable outbox.
    package let outbox: Outbox
    /// The sink batches go to.
    package let sink: any BatchSink
    /// The sink as the panel names it.
    package let sinkLabel: String
    /// Where a headless run's virtual wall clock starts: the real time at start when batches go to
    /// a server, which refuses samples older than those it holds (a fixed date would be refused by
    /// a second run, and by a database holding current data); `nil` for a directory, where the
    /// fixed date of the virtual clock gives the same output every time.
    package let headlessWallStart: Instant?
    private let sampler: any Sampler
    /// The backend the run loop reports its health to, with `uploads.sampler = "loop"`.
    private let loopHealth: LoopHealthSampler?
    private let settings: UploadPipeline.Settings
    private let temporaryDirectory: URL?
    /// The pipeline made by ``makePipeline(on:)``, whose status the exit report reads: kept until
    /// then, as a live session's pipeline is gone by the time the terminal is restored.
    private var pipeline: UploadPipeline?

    /// Opens the outbox at `outboxPath` (default: the XDG state directory) and builds the sampler and sink.
    ///
    /// With `temporary`, a run that names no outbox (headless) gets a fresh directory for the outbox
    /// and the uploads, removed when this value goes away, so the same script prints the same output.
    /// A headless run with `--outbox` writes its uploads next to the outbox, in `uploads/`.
    /// - Throws: ``UploadsSetupError`` naming the file and the reason: an outbox that cannot be
    ///   opened or is corrupt, a route file that cannot be read, an upload URL that is not an
    ///   absolute http(s) URL (or prometheus+http(s) for remote write), remote-write labels that
    ///   Prometheus would refuse, credentials or TLS settings that do not fit together or cannot
    ///   be loaded.
    package init(config settings: Config, outboxPath: String?, uploadURL: String?, headless: Bool)
        throws(UploadsSetupError)
    {
        let config = settings.uploads
        // First, before opening the outbox starts a thread: reading a token from the environment
        // removes it there.
        let access = try UploadsConfig.access(in: settings)
        var temporaryDirectory: URL?
        let outboxURL: URL
        if let outboxPath {
            outboxURL = URL(fileURLWithPath: outboxPath)
        } else if headless {
            let directory = try Self.makeTemporaryDirectory()
            temporaryDirectory = directory
            outboxURL = directory.appendingPathComponent("outbox.sqlite")
        } else {
            outboxURL = Outbox.defaultURL()
        }
        self.temporaryDirectory = temporaryDirectory
        do {
            outbox = try Outbox(url: outboxURL, retention: config.retention, sizeCap: config.outboxSizeCap)
        } catch {
            throw UploadsSetupError(message: "outbox: \(error)")
        }

        var loopHealth: LoopHealthSampler?
        switch config.sampler {
        case .host:
            sampler = HostMetricsSampler()
        case .loop:
            let health = LoopHealthSampler()
            loopHealth = health
            sampler = health
        case .route:
            do {
                if let path = config.routePath {
                    sampler = try RouteReplay(contentsOf: URL(fileURLWithPath: path))
                } else {
                    sampler = try RouteReplay(
                        points: RouteReplay.parseGPX(ShippedFile.route, source: "the shipped route"))
                }
            } catch {
                throw UploadsSetupError(
                    message: Self.fieldProblem(
                        "uploads.route", in: settings, Self.clause("\(error)"),
                        fix: "; or set uploads.sampler = \"host\""))
            }
        }

        if let address = uploadURL ?? config.url {
            // A typo in the URL is a start-up error; an unreachable server is a panel message.
            sink = try Self.httpSink(address, settings: settings, access: access, fromOption: uploadURL != nil)
            sinkLabel = address
            headlessWallStart = TimeSource.system.now(.wall)
        } else if headless {
            let directory = outboxURL.deletingLastPathComponent().appendingPathComponent("uploads", isDirectory: true)
            sink = DirectorySink(directory: directory)
            sinkLabel = temporaryDirectory == nil ? "dir \(directory.path)" : "dir (temporary)"
            headlessWallStart = nil
        } else {
            let directory = DirectorySink.defaultDirectory()
            sink = DirectorySink(directory: directory)
            headlessWallStart = nil
            sinkLabel =
                "dir "
                + directory.path.replacingOccurrences(
                    of: FileManager.default.homeDirectoryForCurrentUser.path, with: "~", options: .anchored)
        }
        self.loopHealth = loopHealth
        self.settings = settings.pipelineSettings
    }

    /// The sink for `address` (from `--upload-url` when `fromOption`, else `uploads.url`): remote
    /// write for a `prometheus+http(s)://` URL or with `uploads.sink = "prometheus"`, JSON otherwise.
    private static func httpSink(
        _ address: String, settings: Config, access: HTTPAccess, fromOption: Bool
    ) throws(UploadsSetupError)
        -> HTTPSink
    {
        let config = settings.uploads
        let scheme = "prometheus+"
        let isPrometheus = address.lowercased().hasPrefix(scheme)
        let endpoint = isPrometheus ? String(address.dropFirst(scheme.count)) : address
        var format = HTTPSink.Format.json
        if isPrometheus || config.sink == .prometheus {
            do {
                format = .remoteWrite(
                    try RemoteWrite(
                        instance: config.instance ?? ProcessInfo.processInfo.hostName, job: config.job,
                        labels: config.labels))
            } catch {
                throw UploadsSetupError(message: fieldProblem("uploads.labels", in: settings, reason(error)))
            }
        }
        do {
            let confirmation = try config.confirmURL.map { store throws(UploadError) in
                try StoreConfirmation(
                    store: store, timeout: config.httpTimeout, patience: config.confirmWithin, access: access)
            }
            let fallback = try config.fallbackURL.map { address throws(UploadError) in
                let isPrometheusFallback = address.lowercased().hasPrefix(scheme)
                guard !isPrometheusFallback || format != .json else {
                    throw .invalidConfiguration(
                        "the fallback URL is for remote write, the upload URL for JSON; give both in one form",
                        setting: .fallbackURL)
                }
                return isPrometheusFallback ? String(address.dropFirst(scheme.count)) : address
            }
            return try HTTPSink(
                endpoint: endpoint, timeout: config.httpTimeout, format: format, access: access,
                confirmation: confirmation, fallback: fallback)
        } catch {
            // The setting the sink refused, as the error carries it; one it does not name is the URL's.
            var setting = UploadSetting.url
            if case .invalidConfiguration(_, let named?) = error { setting = named }
            guard setting == .url, fromOption else {
                throw UploadsSetupError(message: fieldProblem(key(of: setting), in: settings, reason(error)))
            }
            throw UploadsSetupError(
                message: "option --upload-url: \(reason(error)) (accepted: an http(s) or prometheus+http(s) URL)")
        }
    }

    /// The `[uploads]` field that gives the sink's `setting`.
    static func key(of setting: UploadSetting) -> String {
        switch setting {
        case .url: "uploads.url"
        case .timeout: "uploads.timeout"
        case .headers: "uploads.headers"
        case .caFile: "uploads.ca_file"
        case .certFile: "uploads.cert_file"
        case .keyFile: "uploads.key_file"
        case .insecureSkipVerify: "uploads.insecure_skip_verify"
        case .confirmURL: "uploads.confirm_url"
        case .fallbackURL: "uploads.fallback_url"
        }
    }

    /// A start-up error about the config field `key`, in the config's words: where the file sets
    /// it (or the option that replaced it), the field, what is wrong, and what the field accepts
    /// (then `fix`).
    static func fieldProblem(_ key: String, in settings: Config, _ problem: String, fix: String = "")
        -> String
    {
        let accepted = Config.fieldsByKey[key].map { " (accepted: \($0.accepted)\(fix))" } ?? ""
        if let option = settings.places.option(of: key) {
            let taken = Config.optionAccepted[key].map { " (accepted: \($0)\(fix))" } ?? accepted
            return "option \(option): \(problem)\(taken)"
        }
        return "\(settings.places.of(key)): field \(UserText.field(key)): \(problem)\(accepted)"
    }

    /// An upload error's reason without its framing sentence ("Upload settings are invalid: …").
    private static func reason(_ error: UploadError) -> String {
        if case .invalidConfiguration(let reason, _) = error { return reason }
        return clause("\(error)")
    }

    /// A sentence (`Cannot read x: No such file.`) as a clause of a message: `cannot read x: No such file`.
    private static func clause(_ sentence: String) -> String {
        let text = sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
        guard let first = text.first, text.dropFirst().first?.isLowercase == true else { return text }
        return first.lowercased() + text.dropFirst()
    }

    deinit {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    /// The temporary outbox directory of a headless run without `--outbox`, removed at exit.
    package var temporaryDirectoryPath: String? { temporaryDirectory?.path }

    /// The pipeline on `loop`, not yet started; with the loop sampler, `loop` reports its health to it.
    package func makePipeline(on loop: RunLoop) -> UploadPipeline {
        if let loopHealth { loop.reportMetrics(factory: loopHealth) }
        let pipeline = UploadPipeline(
            loop: loop, outbox: outbox, sampler: sampler, sink: sink, settings: settings, metrics: loopHealth)
        self.pipeline = pipeline
        return pipeline
    }

    /// What to tell the user about the uploads at exit, after the pipeline's flush left `left`
    /// samples undelivered; `failed` when a sample was lost or the outbox failed, so the run
    /// must not exit 0.
    package func exitReport(left: Int) -> (lines: [String], failed: Bool) {
        var lines: [String] = []
        let status = pipeline?.status
        if let unsaved = status?.unsaved {
            lines.append(
                "\(unsaved.count) sample\(unsaved.count == 1 ? "" : "s") could not be saved and \(unsaved.count == 1 ? "is" : "are") lost: \(unsaved.error)"
            )
        }
        if let problem = status?.problem, problem != status?.unsaved?.error.description {
            lines.append("the outbox failed: \(problem)")
        }
        if left > 0 { lines.append(leftBehind(left, status: status)) }
        return (lines, status?.unsaved != nil || status?.problem != nil)
    }

    /// What becomes of the `left` samples a run did not deliver. Those in batches the server
    /// refused for good (parked: too old, malformed) are promised to no start, as it refuses them
    /// again unless it changes; those refused for the credentials go once it takes them.
    private func leftBehind(_ left: Int, status: UploadStatus?) -> String {
        let kept = temporaryDirectory == nil
        var text =
            "\(left) sample\(left == 1 ? "" : "s") not yet delivered to \(sinkLabel) "
            + (kept ? "stay in \(outbox.url.path)" : "are discarded with the temporary outbox")
        let parked = min(status?.counters?.parkedSamples ?? 0, left)
        let refusal = status?.refused?.error
        var deliverable = left
        if parked > 0, let refusal, refusal.refusesCredentials {
            text += "; the server refused the credentials (\(Self.brief(refusal))): fix the password or token file"
            if kept {
                text += ", and they go out once it takes them"
                deliverable = 0
            }
        } else if parked > 0 {
            text +=
                "; the server refused \(parked == left ? "them" : "\(parked) of them")"
                + (refusal.map { " (\(Self.brief($0)))" } ?? "")
                + " and refuses them again at the next start unless it changes"
            deliverable = left - parked
        }
        guard deliverable > 0 else { return text }
        let those = deliverable == left ? "them" : "the other \(deliverable)"
        return text
            + (kept
                ? "; \(deliverable == left ? "they" : those) go out on the next start"
                : "; give --outbox FILE to keep \(those) for the next start")
    }

    /// A refusal in a few words: "HTTP 400 out of bounds".
    private static func brief(_ error: UploadError) -> String {
        switch error {
        case .rejected(let status, let message): "HTTP \(status)" + (message.isEmpty ? "" : " \(message)")
        case .credentialsUnreadable(let path, let reason): "cannot read \(path): \(reason)"
        default: clause(error.description)
        }
    }

    private static func makeTemporaryDirectory() throws(UploadsSetupError) -> URL {
        do {
            return URL(fileURLWithPath: try FileIO.makeTemporaryDirectory(prefix: "timerdeck"), isDirectory: true)
        } catch {
            throw UploadsSetupError(message: "\(error) (set TMPDIR to a directory you can write to)")
        }
    }
}

/// The uploads cannot start; the message says which file and why.
package struct UploadsSetupError: Error, CustomStringConvertible {
    /// What is wrong and how to fix it.
    package let message: String

    package var description: String { message }
}
