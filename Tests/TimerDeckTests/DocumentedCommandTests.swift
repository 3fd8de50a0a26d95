import Foundation
import TestSupport
import Testing

/// The shell examples of the README and the manual run as written: every block fenced
/// ```` ```sh headless ```` runs with `/bin/sh -e`, the blocks of one document one after the other
/// in one scratch directory, with the built `timerdeck` standing in for `.build/release/timerdeck`.
@Suite(
    "The documents' headless shell examples run", .tags(.process),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct DocumentedCommandTests {
    /// How the examples call the release build.
    static let releaseBinary = ".build/release/timerdeck"

    /// The bodies of the ```` ```sh headless ```` blocks of `text`, in order.
    static func headlessBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```sh headless" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Runs the headless blocks of the repository file `document` and returns their outcomes.
    static func runBlocks(of document: String) throws -> [(block: String, outcome: ChildProcess.Outcome)] {
        let text = try String(contentsOfFile: RepositoryFile.path(document), encoding: .utf8)
        let scratch = try ScratchDirectory(prefix: "documented-commands")
        var results: [(String, ChildProcess.Outcome)] = []
        for block in headlessBlocks(in: text) {
            let script = block.replacing(releaseBinary, with: BuiltProduct.path("timerdeck"))
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_STATE_HOME"] = scratch.path("state").path
            let outcome = try ChildProcess.run(
                "/bin/sh", ["-e", "-c", "cd \"$0\"\n" + script, scratch.url.path], timeout: .seconds(120),
                environment: environment)
            results.append((block, outcome))
        }
        return results
    }

    @Test("Every headless example of Docs/Manual.md runs, and the files they write are there")
    func manualExamples() throws {
        let results = try Self.runBlocks(of: "Docs/Manual.md")
        #expect(results.count >= 5)
        for (block, outcome) in results {
            #expect(outcome.status == 0, "\(block)\n\(outcome)")
        }
        let outputs = results.map(\.outcome.output).joined()
        #expect(outputs.contains("--- snapshot t="))
        #expect(outputs.contains("Resend (53)"))
    }

    @Test("Every headless example of the README runs")
    func readmeExamples() throws {
        let results = try Self.runBlocks(of: "README.md")
        #expect(!results.isEmpty)
        for (block, outcome) in results {
            #expect(outcome.status == 0, "\(block)\n\(outcome)")
        }
    }

    @Test("The examples call the release build, never a debug swift run (prose may name it)")
    func examplesUseTheReleaseBuild() throws {
        for document in ["README.md", "Docs/Manual.md"] {
            let text = try String(contentsOfFile: RepositoryFile.path(document), encoding: .utf8)
            // Lines inside code blocks: a line starting with ``` opens or closes one.
            var inBlock = false
            for line in text.split(separator: "\n") {
                if line.hasPrefix("```") {
                    inBlock.toggle()
                } else if inBlock {
                    #expect(!line.contains("swift run timerdeck"), "\(document) runs the debug build: \(line)")
                }
            }
            for block in Self.headlessBlocks(in: text) {
                let calls = block.split(separator: "\n").filter { $0.contains("timerdeck") && !$0.hasPrefix("#") }
                #expect(calls.allSatisfy { $0.contains(Self.releaseBinary) }, "\(document): \(block)")
            }
        }
    }
}
