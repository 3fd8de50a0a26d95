import Foundation
import TestSupport
import Testing

/// Runs Tests/E2E/tmux-dashboard.sh against the built `timerdeck` in a real terminal (tmux).
@Suite("End to end in tmux", .tags(.tmux, .process, .slow))
struct EndToEndTests {
    @Test(
        "The dashboard in tmux at 80×24 and 120×40: keys, tracking, scrolling, resize, quit, faults",
        .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
    func dashboardInTmux() throws {
        // What tmux-dashboard.sh runs besides bash (Tests/requirements.txt).
        try TestRequirements.commands("tmux", "pgrep", "python3")
        let script = RepositoryFile.path("Tests/E2E/tmux-dashboard.sh")
        // Output goes to files, not a pipe, so tmux servers started by the script cannot hold it open.
        let outcome = try ChildProcess.run(
            "/bin/bash", [script, BuiltProduct.path("timerdeck")], timeout: .seconds(600))
        let text = outcome.output + outcome.error
        print(text)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!text.contains("FAIL"))
    }
}
