import Foundation
import TestSupport
import Testing

/// Runs Tests/E2E/tmux-everyday.sh against the built `timerdeck` in a real terminal (tmux), one
/// scenario per test: an alarm at a clock time rings (its hook runs), a stopwatch's laps are
/// exported with `E` (an existing file only on Enter at the question) and with `--laps`, and a
/// restart keeps every timer once, after `q` and after `kill -9`, and a second dashboard on the same
/// timers file is refused at start, naming the first one's process, whose timers are kept, and a
/// countdown's end writes the bell and the terminal's notification sequence for six terminal profiles,
/// and in kitty what its answer to the capability query says it takes.
@Suite(
    "Everyday timers in tmux", .tags(.tmux, .process, .slow),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct EverydayTmuxTests {
    @Test(
        "Each scenario passes every check in a real terminal",
        arguments: ["alarm", "laps", "restart", "two", "notify", "answer"])
    func scenario(_ name: String) throws {
        // What tmux-everyday.sh runs besides bash (Tests/requirements.txt).
        try TestRequirements.commands("tmux", "pgrep")
        // Output goes to files, not a pipe, so the tmux server the script starts cannot hold it open.
        let outcome = try ChildProcess.run(
            "/bin/bash", [RepositoryFile.path("Tests/E2E/tmux-everyday.sh"), BuiltProduct.path("timerdeck"), name],
            timeout: .seconds(120))
        let text = outcome.output + outcome.error
        #expect(outcome.status == 0, "\(outcome)")
        #expect(!text.contains("FAIL"), "\(text)")
    }
}
