import Foundation

/// One test run again in a child process: the test binary, filtered to that test, with an
/// environment variable naming it.
enum ChildProcess {
    /// A test that failed in its child process, with what the child reported.
    struct Failure: Error, CustomStringConvertible {
        let testID: String
        let status: Int32
        let report: String

        var description: String {
            "the test failed in its child process (exit status \(status)):\n\(report)"
        }
    }

    /// Runs the test `testID` in a child process with `variable` set to it; throws a ``Failure``
    /// with the child's failure lines if it fails.
    static func run(testID: String, variable: String) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", regexEscaped(testID)]
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = testID
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        // The child's output is read, and its end awaited, on a thread of its own: a blocking read
        // must not hold one of the few threads of the cooperative pool.
        let text = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                done.resume(returning: String(decoding: data, as: UTF8.self))
            }
        }
        let status = process.terminationStatus
        if text.contains("with 0 tests") {
            throw Failure(testID: testID, status: status, report: "the child process found no test named \(testID)")
        }
        guard status != 0 else { return }
        let failures = text.split(separator: "\n").filter { $0.contains("✘") || $0.contains("rror") }
        throw Failure(testID: testID, status: status, report: failures.joined(separator: "\n"))
    }

    /// `text` as a regular expression that matches it literally (swift-testing's `--filter`).
    static func regexEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
