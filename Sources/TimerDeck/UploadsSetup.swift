import class Foundation.Bundle
import struct Foundation.URL
import class Foundation.FileManager
import class Foundation.NSString
import func Foundation.NSTemporaryDirectory
import Glibc
import RunLoopKit
import Uploads

/// The upload pipeline's parts, opened and checked before the dashboard starts: the outbox, the
/// sampler and the sink chosen by the config and the command line.
public final class UploadsSetup {
    /// The shipped GPS track, `Resources/route.gpx`, from the resource bundle the build puts beside
    /// the executable (SwiftPM resources; a missing file is reported when the route is read).
    public static let shippedRoute = Bundle.module.bundleURL.appendingPathComponent("Resources/route.gpx").path

    /// The durable outbox.
    public let outbox: Outbox
    /// The sink batches go to.
    public let sink: any BatchSink
    /// The sink as the panel names it.
    public let sinkLabel: String
    private let sampler: any Sampler
    private let settings: UploadPipeline.Settings
    private let temporaryDirectory: URL?

    /// Opens the outbox at `outboxPath` (default: the XDG state directory) and builds the sampler and sink.
    ///
    /// With `temporary`, a run that names no outbox (headless) gets a fresh directory for the outbox
    /// and the uploads, removed when this value goes away, so the same script prints the same output.
    /// A headless run with `--outbox` writes its uploads next to the outbox, in `uploads/`.
    /// - Throws: ``UploadsSetupError`` naming the file and the reason: an outbox that cannot be
    ///   opened or is corrupt, a route file that cannot be read.
    public init(config: UploadsConfig, outboxPath: String?, uploadURL: String?, headless: Bool) throws(UploadsSetupError) {
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
            outbox = try Outbox(url: outboxURL)
        } catch {
            throw UploadsSetupError(message: "outbox: \(error)")
        }

        switch config.sampler {
        case .host:
            sampler = HostMetricsSampler()
        case .route:
            let path = config.routePath ?? Self.shippedRoute
            do {
                sampler = try RouteReplay(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw UploadsSetupError(message: "uploads.route: \(error) (set uploads.route to a GPX file, or uploads.sampler = \"host\")")
            }
        }

        if let address = uploadURL ?? config.url {
            do {
                sink = try HTTPSink(endpoint: address, timeout: config.httpTimeout)
            } catch {
                sink = UnusableSink(destination: address, error: error)
            }
            sinkLabel = address
        } else if headless {
            let directory = outboxURL.deletingLastPathComponent().appendingPathComponent("uploads", isDirectory: true)
            sink = DirectorySink(directory: directory)
            sinkLabel = temporaryDirectory == nil ? "dir \(directory.path)" : "dir (temporary)"
        } else {
            let directory = DirectorySink.defaultDirectory()
            sink = DirectorySink(directory: directory)
            sinkLabel = "dir " + directory.path.replacingOccurrences(
                of: FileManager.default.homeDirectoryForCurrentUser.path, with: "~", options: .anchored)
        }
        settings = config.pipeline
    }

    deinit {
        if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) }
    }

    /// The pipeline on `loop`, not yet started.
    public func makePipeline(on loop: RunLoop) -> UploadPipeline {
        UploadPipeline(loop: loop, outbox: outbox, sampler: sampler, sink: sink, settings: settings)
    }

    private static func makeTemporaryDirectory() throws(UploadsSetupError) -> URL {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("timerdeck.XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw UploadsSetupError(message: "cannot create a temporary directory in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: String(cString: created), isDirectory: true)
    }
}

/// The uploads cannot start; the message says which file and why.
public struct UploadsSetupError: Error, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public let message: String

    public var description: String { message }
}
