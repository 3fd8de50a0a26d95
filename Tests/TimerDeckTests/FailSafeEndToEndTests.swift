import Foundation
import TestSupport
import Testing

/// The built `timerdeck` where a user leaves the happy path: a copy run from anywhere, too few file
/// descriptors, command lines refused before any file is touched.
@Suite(
    "The built binary installs and fails safe", .tags(.process),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct FailSafeEndToEndTests {
    private static let binary = BuiltProduct.path("timerdeck")
    /// The build folder (`.build`), which an installed copy must not need.
    private static let buildFolder = BuiltProduct.directory.deletingLastPathComponent().deletingLastPathComponent()
    /// Whether this machine lets a test hide a folder from a child (a user and mount namespace).
    /// Where `unshare` itself is missing or not listed the test runs, and fails on that.
    private static let canHideFolders =
        (try? TestRequirements.command("unshare")) == nil
        || (try? ChildProcess.run("unshare", ["--mount", "--map-root-user", "true"]))?.status == 0

    @Test(
        "A copy of the binary runs headless from a directory with no build folder beside it or at its build path",
        .enabled(if: canHideFolders, "unshare cannot create a user and mount namespace here"))
    func copiedBinaryRunsWithoutTheBuildFolder() throws {
        let scratch = try ScratchDirectory()
        try FileManager.default.createDirectory(at: scratch.path("bin"), withIntermediateDirectories: false)
        let copy = scratch.path("bin/timerdeck").path
        let script = try scratch.write("size 80x24\nwait 6s\nsnapshot\nquit\n", to: "script.txt")
        // The child copies the binary itself: a copy written by this process could still be open for
        // writing in another test's child at the exec (ETXTBSY). Then an empty file system goes over
        // the build folder, so the copy sees no build products at all.
        let outcome = try ChildProcess.run(
            "unshare",
            [
                "--mount", "--map-root-user", "/bin/sh", "-c",
                "cp \"$5\" \"$3\" && mount -t tmpfs none \"$1\" && cd \"$2\" && exec \"$3\" --headless --script \"$4\"",
                "sh", Self.buildFolder.path, scratch.url.path, copy, script, Self.binary,
            ], timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.output.contains("Uploads (S2)"), "\(outcome)")
        #expect(outcome.output.contains("· last #"), "the shipped route gave samples: \(outcome)")
    }

    @Test("--print-config prints the shipped config; --help names it instead of a file in the source tree")
    func printConfig() throws {
        let printed = try ChildProcess.run(Self.binary, ["--print-config"], timeout: .seconds(60))
        #expect(printed.status == 0, "\(printed)")
        #expect(
            printed.output
                == (try String(contentsOfFile: RepositoryFile.path("Resources/timerdeck.toml"), encoding: .utf8)))
        let help = try ChildProcess.run(Self.binary, ["--help"], timeout: .seconds(60))
        #expect(help.status == 0, "\(help)")
        #expect(help.output.contains("--print-config"), "\(help)")
        #expect(!help.output.contains("Resources/"), "\(help)")
    }

    @Test(
        "Too few file descriptors (ulimit -n 12): exit 2 naming the limit and the fix, never a trap",
        arguments: [12, 20])
    func descriptorLimitHeadless(limit: Int) throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write("size 80x24\nwait 2s\nsnapshot\nquit\n", to: "script.txt")
        let outcome = try ChildProcess.run(
            "/bin/sh", ["-c", "ulimit -n \(limit) && exec \"$0\" --headless --script \"$1\"", Self.binary, script],
            timeout: .seconds(60))
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.error.hasPrefix("timerdeck: out of file descriptors"), "\(outcome)")
        #expect(outcome.error.contains("ulimit -n) is \(limit)"), "\(outcome)")
        #expect(!outcome.error.contains("TERM"), "\(outcome)")
    }

    @Test(
        "A command line refused for its script touches neither the outbox, its lock nor the trace file",
        arguments: [
            (["--script"], "quit\n", "timerdeck: --script is only used with --headless"),
            (["--headless", "--script"], "bogus line\n", "script.txt:1: unknown command \"bogus\""),
            (["--headless", "--json", "--plain", "--script"], "quit\n", "timerdeck: --json and --plain are two ways"),
            (["--headless", "--color", "bogus", "--script"], "quit\n", "option --color: \"bogus\" is invalid"),
        ])
    func refusedScriptTouchesNothing(options: [String], text: String, message: String) throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write(text, to: "script.txt")
        let trace = try scratch.write("{\"kept\":true}\n", to: "trace.jsonl")
        let outbox = scratch.path("outbox.sqlite").path
        let outcome = try ChildProcess.run(
            Self.binary, options + [script, "--outbox", outbox, "--trace", trace, "--force"], timeout: .seconds(60))
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.error.contains(message), "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: outbox))
        #expect(!FileManager.default.fileExists(atPath: outbox + ".lock"))
        #expect(try String(contentsOfFile: trace, encoding: .utf8) == "{\"kept\":true}\n")
    }

    @Test("Without a terminal the dashboard is refused before the outbox, the trace or the recording is touched")
    func noTerminalTouchesNothing() throws {
        let scratch = try ScratchDirectory()
        let trace = try scratch.write("{\"kept\":true}\n", to: "trace.jsonl")
        let record = scratch.path("session.txt").path
        let state = scratch.path("state").path
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = state
        environment["TERM"] = "xterm-256color"
        let outcome = try ChildProcess.run(
            Self.binary, ["--trace", trace, "--force", "--record", record], timeout: .seconds(60),
            environment: environment)
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.error.hasPrefix("timerdeck: timerdeck needs a terminal"), "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: state), "no outbox in the state directory")
        #expect(!FileManager.default.fileExists(atPath: record))
        #expect(try String(contentsOfFile: trace, encoding: .utf8) == "{\"kept\":true}\n")
    }

    @Test("A headless run with its own outbox ends on SIGTERM, as the signal ends a program, keeping the outbox")
    func headlessRunEndsOnSignal() throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write("wait 4h\nwait 4h\nsnapshot\n", to: "script.txt")
        let outbox = scratch.path("outbox.sqlite").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = ["--headless", "--script", script, "--outbox", outbox]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The signals are handled once the outbox is open: wait for it, bounded.
        let opened = ContinuousClock.now + .seconds(60)
        while !FileManager.default.fileExists(atPath: outbox + ".lock"), ContinuousClock.now < opened {
            usleep(10_000)
        }
        kill(process.processIdentifier, SIGTERM)
        let ended = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < ended { usleep(10_000) }
        #expect(!process.isRunning, "still running 30 s after SIGTERM")
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        #expect(FileManager.default.fileExists(atPath: outbox))
    }

    @Test("--outbox naming a directory is refused and leaves no stray .lock beside it")
    func outboxDirectoryIsRefused() throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path("state").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let script = try scratch.write("quit\n", to: "script.txt")
        let outcome = try ChildProcess.run(
            Self.binary, ["--headless", "--script", script, "--outbox", directory], timeout: .seconds(60))
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.error.hasPrefix("timerdeck: --outbox \"\(directory)\" is a directory"), "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: directory + ".lock"))
    }

    @Test(
        "A file in a missing directory is an error, and the directory is not created",
        arguments: ["--outbox", "--trace"])
    func missingDirectoryIsNotCreated(option: String) throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write("quit\n", to: "script.txt")
        let missing = scratch.path("no/such").path
        let outcome = try ChildProcess.run(
            Self.binary, ["--headless", "--script", script, option, missing + "/file"], timeout: .seconds(60))
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.error.contains("the directory \(missing) does not exist"), "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("no").path))
    }

    @Test("The bash, zsh and fish completions complete file names for every option that names a file")
    func completionsCompleteFileNames() throws {
        let options = ["config", "script", "trace", "record", "outbox", "out"]
        let scripts = try ["bash", "zsh", "fish"].map { shell in
            let outcome = try ChildProcess.run(
                Self.binary, ["--generate-completion-script", shell], timeout: .seconds(60))
            #expect(outcome.status == 0, "\(outcome)")
            return (shell, outcome.output.split(separator: "\n").map(String.init))
        }
        for (shell, lines) in scripts {
            for option in options {
                let completesFiles =
                    switch shell {
                    case "bash":
                        lines.indices.contains { index in
                            lines[index].trimmingCharacters(in: .whitespaces) == "'--\(option)')"
                                && lines[index + 1].hasSuffix("_add_completions -f")
                        }
                    case "zsh": lines.contains { $0.contains("'--\(option)[") && $0.hasSuffix(":_files'") }
                    default: lines.contains { $0.contains("-l '\(option)'") && $0.hasSuffix("-rF") }
                    }
                #expect(completesFiles, "\(shell): --\(option)")
            }
        }
    }
}
