import AppPlatform
import Dispatch
import Foundation

/// The default sink: writes each batch as a JSON file, `<batch id>.json`, into a directory.
///
/// A file appears whole or not at all (temporary file, fsync, rename, fsync of the
/// directory), and delivering the same batch again rewrites the same bytes under the same
/// name, so a batch is stored once however often it is delivered. Writes happen one at a
/// time on a private queue; the completion runs there.
///
/// ```swift
/// let sink = DirectorySink()          // $XDG_STATE_HOME/timerdeck/uploads
/// sink.deliver(batch) { result in loop.perform { handle(result) } }
/// ```
public final class DirectorySink: BatchSink {
    /// The directory batches are written into; created (mode 0700) on first delivery.
    public let directory: URL
    private let queue = DispatchQueue(label: "timerdeck.directory-sink")

    /// `$XDG_STATE_HOME/timerdeck/uploads`, or `~/.local/state/timerdeck/uploads`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateDirectory.url(environment: environment).appendingPathComponent("uploads", isDirectory: true)
    }

    /// Creates a sink writing into `directory`.
    public init(directory: URL = DirectorySink.defaultDirectory()) {
        self.directory = directory
    }

    /// The directory's path.
    public var destination: String { directory.path }

    /// The file a batch is written to.
    public func fileURL(for batchID: UUID) -> URL {
        directory.appendingPathComponent(batchID.uuidString.lowercased() + ".json")
    }

    /// Writes `batch` on the sink's queue; acknowledges once the file is durably in place.
    ///
    /// Fails with ``UploadError/writeFailed(path:reason:)`` (retryable) naming the path and
    /// the reason when the directory cannot be created or the file cannot be written.
    public func deliver(_ batch: Batch, completion: @escaping @Sendable (Result<Ack, UploadError>) -> Void) {
        let directoryPath = directory.path
        let filePath = fileURL(for: batch.id).path
        queue.async {
            completion(
                Result { () throws(UploadError) -> Ack in
                    try Self.write(batch, directoryPath: directoryPath, filePath: filePath)
                })
        }
    }

    private static func write(_ batch: Batch, directoryPath: String, filePath: String) throws(UploadError) -> Ack {
        let body = try BatchPayload.encode(batch)
        do {
            try FileIO.createDirectory(atPath: directoryPath)
            try FileIO.replace(atPath: filePath, with: [UInt8](body))
        } catch {
            throw .writeFailed(path: error.path, reason: "cannot \(error.operation): \(error.reason)")
        }
        return Ack(batchID: batch.id, destination: filePath)
    }
}
