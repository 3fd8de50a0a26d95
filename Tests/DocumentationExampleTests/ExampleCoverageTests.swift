import Foundation
import TestSupport
import Testing

/// Every ```swift example in the documentation comments of RunLoopKit, RunLoopKitFoundationCompat
/// and RunLoopKitTesting and in their DocC articles appears, token for token, in a compiled file of this target — so an
/// example that calls an API that does not exist fails the build, and one left out fails here.
@Suite("Documentation examples are compiled")
struct ExampleCoverageTests {
    /// One example: where it is and its lines, trimmed, blank lines left out.
    struct Example: CustomStringConvertible {
        var location: String
        var lines: [String]
        var description: String { "\(location):\n" + lines.joined(separator: "\n") }
    }

    static let documentedModules = [
        "Sources/RunLoopKit", "Sources/RunLoopKitFoundationCompat", "Sources/RunLoopKitTesting",
    ]

    /// The files under `directory` (relative to the repository) whose names end in `suffix`.
    static func files(under directory: String, endingIn suffix: String) -> [String] {
        let root = RepositoryFile.path(directory)
        let names = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { "\(directory)/\($0)" }
    }

    /// The ```swift blocks of `text`; in a Swift file only those in `///` comments.
    static func examples(in text: String, at path: String) -> [Example] {
        var found: [Example] = []
        var current: Example?
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if path.hasSuffix(".swift") {
                guard line.hasPrefix("///") else { continue }
                line = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            }
            if current == nil, line == "```swift" {
                current = Example(location: "\(path):\(number + 1)", lines: [])
            } else if let example = current, line == "```" {
                found.append(example)
                current = nil
            } else if !line.isEmpty {
                current?.lines.append(line)
            }
        }
        return found
    }

    static var allExamples: [Example] {
        documentedModules.flatMap { module in
            (files(under: module, endingIn: ".swift") + files(under: module, endingIn: ".md")).flatMap { path in
                examples(in: (try? String(contentsOfFile: RepositoryFile.path(path), encoding: .utf8)) ?? "", at: path)
            }
        }
    }

    /// `text` without any whitespace: an example and its compiled copy match whatever the
    /// formatter did to spacing, indentation and line breaks.
    static func compact(_ text: some StringProtocol) -> String {
        String(text.unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) }.map(Character.init))
    }

    /// This target's files, compacted and joined.
    static let compiledText: String = files(under: "Tests/DocumentationExampleTests", endingIn: ".swift")
        .map { path in compact((try? String(contentsOfFile: RepositoryFile.path(path), encoding: .utf8)) ?? "") }
        .joined(separator: "\n")

    static func isCompiled(_ example: Example) -> Bool {
        compiledText.contains(compact(example.lines.joined()))
    }

    @Test("the documentation has examples, in comments and in articles")
    func examplesAreFound() {
        let examples = Self.allExamples
        #expect(examples.count > 30)
        #expect(examples.contains { $0.location.contains(".docc/") })
    }

    @Test("every documentation example is in a compiled file of DocumentationExampleTests")
    func everyExampleIsCompiled() {
        for example in Self.allExamples {
            #expect(Self.isCompiled(example), "not compiled: \(example)")
        }
    }
}
