import TestSupport
import Testing

/// The built `timerdeck` given bad input: exit status 2 and one clear line on stderr, never a trap
/// (exit 132) or a hang. Each run ends at argument or file checking, before any terminal is needed.
@Suite(
    "Bad input to the built binary: exit 2 and a clear message", .tags(.process),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct BadInputEndToEndTests {
    @Test("An overflowing duration in the config names the field and its range")
    func overflowingConfigDuration() throws {
        let scratch = try ScratchDirectory()
        let config = try scratch.write("[gesture]\nquiet = \"200000000000000000m\"\n", to: "big.toml")
        try expectRefused(
            ["--config", config],
            "timerdeck: \(config):2: field 'gesture.quiet' = \"200000000000000000m\" is invalid (accepted: a duration 1ms…10s"
        )
    }

    @Test("An overflowing wait in a CRLF script names its line and the cap")
    func overflowingScriptWait() throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write("size 80x24\r\nwait 200000000000000000m\r\n", to: "big.txt")
        try expectRefused(
            ["--headless", "--script", script],
            "timerdeck: \(script):2: wait \"200000000000000000m\" — expected a duration 1ms…4h")
    }

    @Test("A directory as --config or --script is refused")
    func directoryRefused() throws {
        let scratch = try ScratchDirectory()
        try expectRefused(
            ["--config", scratch.url.path], "timerdeck: config file \"\(scratch.url.path)\" is a directory")
        try expectRefused(
            ["--headless", "--script", scratch.url.path], "timerdeck: script \"\(scratch.url.path)\" is a directory")
    }

    @Test("--fps -1 reports the range, not a missing value", arguments: ["-1", "0", "abc", "99999999999999999999"])
    func fpsOutOfRange(value: String) throws {
        try expectRefused(
            ["--fps", value], "timerdeck: option --fps: \"\(value)\" is invalid (accepted: an integer 1…240)")
    }

    @Test("A NUL byte in the config is refused with its line")
    func nulByte() throws {
        let scratch = try ScratchDirectory()
        let config = try scratch.write("[ticker]\nfps = 60\n#\0\n", to: "nul.toml")
        try expectRefused(["--config", config], "timerdeck: \(config):3: contains a NUL byte")
    }

    /// Runs timerdeck with `arguments` and expects exit status 2 and stderr starting with `message`.
    private func expectRefused(_ arguments: [String], _ message: String) throws {
        let outcome = try ChildProcess.run(BuiltProduct.path("timerdeck"), arguments, timeout: .seconds(60))
        #expect(outcome.status == 2, "\(outcome)")
        #expect(outcome.error.hasPrefix(message), "\(outcome)")
        #expect(outcome.error.count < 500, "\(outcome)")
    }
}
