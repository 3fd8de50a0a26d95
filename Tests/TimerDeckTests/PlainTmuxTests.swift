import Foundation
import TestSupport
import Testing

/// Runs Tests/E2E/tmux-plain.sh against the built `timerdeck`: the plain mode in a real terminal
/// (tmux), read line by line.
@Suite(
    "The plain mode in tmux", .tags(.tmux, .process, .slow),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct PlainTmuxTests {
    @Test("--plain: one line per event in order, the keys, r's report, no screen drawing, the terminal restored")
    func plainModeLineByLine() throws {
        // What tmux-plain.sh runs besides bash (Tests/requirements.txt).
        try TestRequirements.commands("tmux")
        // Output goes to files, not a pipe, so the tmux server the script starts cannot hold it open.
        let outcome = try ChildProcess.run(
            "/bin/bash", [RepositoryFile.path("Tests/E2E/tmux-plain.sh"), BuiltProduct.path("timerdeck")],
            timeout: .seconds(120))
        let text = outcome.output + outcome.error
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!text.contains("FAIL"), "\(text)")
    }
}
