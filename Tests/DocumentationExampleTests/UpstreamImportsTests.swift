import Foundation
import TestSupport
import Testing

/// The article "Porting Foundation code" shows the import file Foundation's own tests run with; the
/// script that runs them writes it. Both must say the same.
@Suite("The porting article's import file")
struct UpstreamImportsTests {
    /// The lines of `text` after the first line that `opens` at or after the first line containing
    /// `marker`, up to the next line that is `closing`.
    private func block(of text: String, from marker: String, opening opens: (String) -> Bool, closing: String)
        -> [String]
    {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let markerLine = lines.firstIndex(where: { $0.contains(marker) }),
            let first = lines[markerLine...].firstIndex(where: opens)
        else { return [] }
        return Array(lines[(first + 1)...].prefix { $0 != closing })
    }

    @Test("is the Imports.swift that Tests/Upstream/foundation-tests.sh writes, line for line")
    func articleShowsWhatTheScriptWrites() throws {
        let article = try String(
            contentsOfFile: RepositoryFile.path(
                "Sources/RunLoopKitFoundationCompat/RunLoopKitFoundationCompat.docc/Porting.md"),
            encoding: .utf8)
        let script = try String(
            contentsOfFile: RepositoryFile.path("Tests/Upstream/foundation-tests.sh"), encoding: .utf8)
        let shown = block(of: article, from: "foundation-tests.sh` writes it", opening: { $0 == "```" }, closing: "```")
        let written = block(
            of: script, from: "In place of Foundation's Imports.swift",
            opening: { $0.hasPrefix("cat >\"$scratch/Tests/FoundationTests/Imports.swift\"") }, closing: "SWIFT")
        #expect(shown.contains("@_exported import RunLoopKitFoundationCompat"))
        #expect(shown == written)
    }
}
