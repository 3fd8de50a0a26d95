import AppPlatform
import Foundation
import KeptTimers
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

@Suite(
    "The installed timerdeck: status from the timers file alone, the dashboard for everything else",
    .enabled(
        if: BuiltProduct.isBuilt("timerdeck") && BuiltProduct.isBuilt("timerdeck-launcher"),
        "build timerdeck and timerdeck-launcher first"))
struct LauncherTests {
    /// A held countdown of 4 min with 42 s left and a held stopwatch: times that do not move while
    /// the two programs read them (an alarm's time to it does).
    static let held = SavedTimers(
        entries: [
            .pausedCountdown(name: "tea", remaining: 42),
            .pausedStopwatch(name: "run", elapsed: .milliseconds(723_400), splits: [.seconds(60)]),
        ],
        savedAt: Instant(nanoseconds: 1_767_225_600_000_000_000),
        countdownLengths: ["tea": .init(seconds: 240, overtime: true)])

    /// The launcher installed alone as `bin/timerdeck` in `scratch`, as `./install.sh` installs it.
    static func installLauncher(in scratch: ScratchDirectory) throws -> String {
        let bin = scratch.path("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let installed = bin.appendingPathComponent("timerdeck").path
        // Written with a descriptor closed on exec, then renamed into place: a copy's descriptor
        // inherited by a child another test starts meanwhile would make the exec fail (ETXTBSY).
        let program = try Data(contentsOf: URL(fileURLWithPath: BuiltProduct.path("timerdeck-launcher")))
        try FileIO.replace(atPath: installed, with: [UInt8](program), mode: 0o755)
        return installed
    }

    /// Runs the program installed at `path` (a copy of a built one, so the shell `sh` starts it).
    static func run(
        _ path: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> ChildProcess.Outcome {
        try ChildProcess.run(
            "sh", ["-c", #"exec "$0" "$@""#, path] + arguments, timeout: .seconds(30), environment: environment)
    }

    @Test("With no dashboard beside it, it prints every format exactly as the dashboard does; a missing file: none")
    func answersAlone() throws {
        let scratch = try ScratchDirectory()
        let launcher = try Self.installLauncher(in: scratch)
        let state = try scratch.write(Self.held.text, to: "timers.state")
        for format in TimerStatus.Format.allCases {
            let arguments = ["status", "--state", state, "--format=\(format.rawValue)"]
            let alone = try Self.run(launcher, arguments)
            let dashboard = try ChildProcess.run(BuiltProduct.path("timerdeck"), arguments, timeout: .seconds(30))
            #expect(alone.status == 0 && dashboard.status == 0, "\(alone) \(dashboard)")
            #expect(alone.output == dashboard.output, "\(format)")
        }
        let text = try Self.run(launcher, ["status", "--state", state])
        #expect(text.output.hasPrefix("tea: 00:42 left (paused)\nrun: 12:03.4 run (paused)\n"), "\(text)")
        // The default file, from XDG_STATE_HOME, missing: no timers.
        let missing = try Self.run(launcher, ["status"], environment: ["XDG_STATE_HOME": scratch.path("none").path])
        #expect(missing.status == 0 && missing.output == "no timers running\n", "\(missing)")
    }

    @Test("Anything else it leaves to the dashboard, which it finds in libexec, and says what to do when it is missing")
    func leavesTheRestToTheDashboard() throws {
        let scratch = try ScratchDirectory()
        let launcher = try Self.installLauncher(in: scratch)
        let missing = try Self.run(launcher, ["--version"])
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.error.contains("the dashboard's program is missing") && missing.error.contains("./install.sh"))
        let libexec = scratch.path("libexec/timerdeck")
        try FileManager.default.createDirectory(at: libexec, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: libexec.appendingPathComponent("timerdeck").path,
            withDestinationPath: BuiltProduct.path("timerdeck"))
        let version = try Self.run(launcher, ["--version"])
        let direct = try ChildProcess.run(BuiltProduct.path("timerdeck"), ["--version"], timeout: .seconds(30))
        #expect(version.status == 0 && version.output == direct.output && !version.output.isEmpty, "\(version)")
        // A file of format 2 keeps no lengths: the dashboard reads them from the config.
        let formatTwo = try scratch.write(
            "timerdeck-state 2\nsaved\t5\ncountdown\ttea\tpaused\t42\n", to: "old.state")
        let config = try scratch.write(
            "[[timers]]\nname = \"tea\"\ndrives = \"countdown\"\ncountdown = 240\n", to: "timers.toml")
        let old = try Self.run(launcher, ["status", "--state", formatTwo, "--config", config, "--format", "json"])
        #expect(old.status == 0 && old.output.contains("\"length_s\":240"), "\(old)")
        let bad = try Self.run(launcher, ["status", "--format", "xml"])
        #expect(bad.status == 2 && bad.error.contains("option --format: \"xml\" is not one of text, tmux"), "\(bad)")
    }

    @Test("It is one static file: no program interpreter, so no shared library (the dashboard has one)")
    func loadsNoSharedLibrary() throws {
        #expect(try !Self.hasProgramInterpreter(BuiltProduct.path("timerdeck-launcher")))
        #expect(try Self.hasProgramInterpreter(BuiltProduct.path("timerdeck")), "the positive control")
    }

    /// Whether the ELF file at `path` names a program interpreter (a `PT_INTERP` header: `ld.so`).
    static func hasProgramInterpreter(_ path: String) throws -> Bool {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe))
        func number(at offset: Int, size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
        }
        try #require(
            bytes.count > 64 && bytes[0..<4] == [0x7F, 0x45, 0x4C, 0x46] && bytes[4] == 2, "a 64-bit ELF file")
        let (table, entrySize, count) = (
            number(at: 0x20, size: 8), number(at: 0x36, size: 2), number(at: 0x38, size: 2)
        )
        return (0..<count).contains { number(at: table + $0 * entrySize, size: 4) == 3 }
    }
}
