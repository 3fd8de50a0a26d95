import Foundation
import Synchronization

/// The loopback collector (`Tests/Collector/collector.py`) as a child process: an HTTP server on a
/// port of the kernel's choice that stores the batches posted to it, for the uploads soak and the
/// HTTP tests.
///
/// It prints its port on its first line before serving. It ends with its owner: closing its
/// standard input makes it exit, and it is terminated as well when released.
package final class LocalCollector {
    /// The collector's script in this repository.
    package static let scriptPath =
        String(#filePath.dropLast("Sources/LocalServers/LocalCollector.swift".count)) + "Tests/Collector/collector.py"

    /// The port it listens on, on 127.0.0.1.
    package let port: Int
    private let process = Process()
    private let input = Pipe()

    /// Starts the collector with `arguments` (`["--fail-first", "2"]`, `["--lifetime", "600"]`) and
    /// waits, at most `startTimeout`, for its port. `programs` finds `python3` (``ProgramLookup``).
    ///
    /// - Throws: ``StartFailure`` when it prints no port in time, and what `programs` throws.
    package init(
        _ arguments: [String] = [], startTimeout: DispatchTimeInterval = .seconds(60),
        programs: ProgramLookup = debianProgram
    ) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: try programs("python3"))
        process.arguments = [Self.scriptPath] + arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()

        let firstLine = Mutex<String?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let reader = output.fileHandleForReading
        Thread.detachNewThread {
            var bytes: [UInt8] = []
            while !bytes.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                bytes += chunk
            }
            firstLine.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
            ready.signal()
        }
        guard ready.wait(timeout: .now() + startTimeout) == .success,
            let line = firstLine.withLock({ $0 }),
            let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            Self.stop(process, input)
            throw StartFailure(description: "the collector at \(Self.scriptPath) printed no port")
        }
        self.port = port
    }

    deinit {
        Self.stop(process, input)
    }

    /// The URL batches are posted to.
    package var endpoint: String { "http://127.0.0.1:\(port)/batches" }

    /// The address of `path` (`/received`, `/control`) on it.
    package func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    private static func stop(_ process: Process, _ input: Pipe) {
        try? input.fileHandleForWriting.close()
        process.stop(within: 30)
    }

    /// The collector did not start; the description says why.
    package struct StartFailure: Error, CustomStringConvertible {
        /// What went wrong.
        package let description: String
    }
}
