import Foundation
import TestSupport
import Testing

/// Runs Tests/E2E/tmux-colour.sh against the built `timerdeck`: the colours a real terminal
/// (tmux) receives under NO_COLOR, --color and a [theme].
@Suite(
    "Colour in tmux", .tags(.tmux, .process, .slow),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct ColourTmuxTests {
    @Test("NO_COLOR: no colour, bold and reverse kept; --color always and never; #rrggbb as the nearest of 256")
    func coloursInATerminal() throws {
        // What tmux-colour.sh runs besides bash (Tests/requirements.txt).
        try TestRequirements.commands("tmux")
        // Output goes to files, not a pipe, so the tmux server the script starts cannot hold it open.
        let outcome = try ChildProcess.run(
            "/bin/bash", [RepositoryFile.path("Tests/E2E/tmux-colour.sh"), BuiltProduct.path("timerdeck")],
            timeout: .seconds(120))
        let text = outcome.output + outcome.error
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!text.contains("FAIL"), "\(text)")
    }
}
