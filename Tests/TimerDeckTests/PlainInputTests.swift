import Foundation
import TestSupport
import Testing

/// `--plain` takes its keys from whatever standard input is: a terminal, a pipe, a file, or nothing
/// at all (`/dev/null`), where it narrates until a signal ends it — never a trap.
@Suite(
    "Plain mode's keys from a file, a pipe or nothing", .tags(.process),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct PlainInputTests {
    static let binary = BuiltProduct.path("timerdeck")

    @Test("Keys from a regular file come at once: j moves, q quits, exit 0")
    func keysFromAFile() throws {
        let scratch = try ScratchDirectory()
        let keys = try scratch.write("jq", to: "keys")
        let outcome = try ChildProcess.run(
            Self.binary, ["--plain"], timeout: .seconds(60), environment: Self.environment(scratch),
            standardInput: keys)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("quitting"), "\(outcome)")
        #expect(!outcome.error.contains("epoll"), "\(outcome)")
    }

    @Test("With /dev/null on standard input it narrates, and SIGTERM ends it with exit 0")
    func nothingOnStandardInput() throws {
        let scratch = try ScratchDirectory()
        let output = scratch.path("plain.txt").path
        // The signal is sent once the session has written its first line, so its handler is set.
        let script = """
            "$0" --plain </dev/null >"\(output)" 2>&1 &
            pid=$!
            until grep -q 'started' "\(output)" 2>/dev/null; do sleep 0.05; done
            kill -TERM "$pid"
            wait "$pid"
            """
        let outcome = try ChildProcess.run(
            "/bin/sh", ["-c", script, Self.binary], timeout: .seconds(60), environment: Self.environment(scratch))
        let transcript = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(outcome.status == 0, "\(outcome) \(transcript)")
        #expect(transcript.contains("started in"), "\(transcript)")
        #expect(!transcript.contains("epoll refuses"), "\(transcript)")
    }

    /// The test's environment with the state under `scratch`, never the user's.
    static func environment(_ scratch: ScratchDirectory) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = scratch.path("state").path
        return environment
    }
}
