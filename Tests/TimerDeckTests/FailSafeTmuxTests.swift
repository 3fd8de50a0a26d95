import Foundation
import TestSupport
import Testing

/// Runs Tests/E2E/tmux-fail-safe.sh against the built `timerdeck` in a real terminal (tmux), one
/// scenario per test: an installed copy, too few descriptors, a full disk, TERM=vt52, hooks left
/// running at quit, SIGTERM and `kill -9`.
@Suite(
    "The live dashboard fails safe in tmux", .tags(.tmux, .process, .slow),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct FailSafeTmuxTests {
    @Test(
        "Each way off the happy path ends with the right status, a clear message and the terminal restored",
        arguments: ["installed", "descriptors", "disk-full", "vt52", "hooks-quit", "hooks-sigterm", "hooks-kill9"])
    func scenario(_ name: String) throws {
        let build = BuiltProduct.directory.deletingLastPathComponent().deletingLastPathComponent()
        // What tmux-fail-safe.sh runs besides bash (Tests/requirements.txt).
        try TestRequirements.commands("tmux", "pgrep", "pkill", "unshare")
        // Output goes to files, not a pipe, so the tmux server the script starts cannot hold it open.
        let outcome = try ChildProcess.run(
            "/bin/bash",
            [RepositoryFile.path("Tests/E2E/tmux-fail-safe.sh"), BuiltProduct.path("timerdeck"), build.path, name],
            timeout: .seconds(300))
        let text = outcome.output + outcome.error
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!text.contains("FAIL"), "\(text)")
    }
}
