import Foundation
import TestSupport
import Testing

/// The README's Swift example is the `readme-example` program, character for character: the build
/// compiles it as a whole program, so an example that does not compile as copied breaks the build,
/// and one edited in the README alone fails here.
@Suite("The README's Swift example is a compiled program")
struct ReadmeExampleTests {
    /// The program the README shows.
    static let programPath = "Tests/DocumentationExampleTests/ReadmeExample/main.swift"

    /// The bodies of the ```swift blocks of `text`, each with its final newline.
    static func swiftBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.map { $0 + "\n" }.joined())
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("The README's one Swift block equals the compiled program's file")
    func readmeBlockIsTheProgram() throws {
        let readme = try String(contentsOfFile: RepositoryFile.path("README.md"), encoding: .utf8)
        let program = try String(contentsOfFile: RepositoryFile.path(Self.programPath), encoding: .utf8)
        #expect(Self.swiftBlocks(in: readme) == [program])
    }

    @Test(
        "The program runs as the README says: the delayed perform is pending at 1 s and runs at 2 s",
        .tags(.process), .enabled(if: BuiltProduct.isBuilt("readme-example"), "build readme-example first"))
    func programRuns() throws {
        let outcome = try ChildProcess.run(BuiltProduct.path("readme-example"), [], timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.first == "1 ticks")
        #expect(lines.contains("toast pending: true"))
        #expect(lines.contains { $0.hasSuffix("frames in 2 s") })
        #expect(lines.contains { $0.hasPrefix("tick at") })
    }
}
