import Foundation
import Testing

/// Runs Tests/E2E/tmux-dashboard.sh against the built `timerdeck` in a real terminal (tmux).
@Suite("End to end in tmux")
struct EndToEndTests {
    @Test("The dashboard in tmux at 80×24 and 120×40: keys, tracking, scrolling, resize, quit, faults",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"), "tmux is not installed"))
    func dashboardInTmux() throws {
        let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let script = testsDirectory.appendingPathComponent("E2E/tmux-dashboard.sh").path
        let buildDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let binary = buildDirectory.appendingPathComponent("timerdeck").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build timerdeck first: \(binary)")
        // Output goes to a file, not a pipe, so tmux servers started by the script cannot hold it open.
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("timerdeck-e2e-\(getpid()).log").path
        defer { unlink(logPath) }
        let status = try spawnAndWait(["/bin/bash", "-c", "exec \"$0\" \"$1\" >\"$2\" 2>&1 </dev/null", script, binary, logPath])
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        print(text)
        #expect(status == 0, "\(text)")
        #expect(!text.contains("FAIL"))
    }

    /// Runs `arguments` as a child process and returns its exit status (posix_spawn + waitpid).
    private func spawnAndWait(_ arguments: [String]) throws -> Int32 {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status >> 8) & 0xFF
    }
}
