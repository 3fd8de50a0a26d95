import Foundation
import TestSupport
import Testing

/// A file the user already has is never overwritten unasked: `--trace`, `--record` and
/// `plot --out` refuse an existing file (exit 2, naming it and `--force`), and `--force` replaces it.
@Suite(
    "Existing output files are refused unless --force", .tags(.process),
    .enabled(if: BuiltProduct.isBuilt("timerdeck"), "build timerdeck first"))
struct OverwriteRefusalTests {
    static let binary = BuiltProduct.path("timerdeck")
    static let kept = "a file the user keeps\n"

    @Test(
        "--trace and --record refuse an existing file, which is kept byte for byte", arguments: ["--trace", "--record"])
    func existingFileRefused(option: String) throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write("size 80x24\nwait 1s\nquit\n", to: "scene.txt")
        let existing = try scratch.write(Self.kept, to: "output")
        // --record takes a live session; the refusal comes first, before the terminal is looked at.
        let arguments =
            option == "--trace" ? ["--headless", "--script", script, "--trace", existing] : ["--record", existing]
        let outcome = try ChildProcess.run(Self.binary, arguments, timeout: .seconds(60))
        #expect(outcome.status == 2, "\(outcome)")
        #expect(
            outcome.error.contains("\(option) \"\(existing)\" exists; timerdeck does not overwrite it")
                && outcome.error.contains("--force"), "\(outcome)")
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == Self.kept)
    }

    @Test("--force replaces an existing trace")
    func forceReplacesTheTrace() throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write("size 80x24\nwait 10s\nquit\n", to: "scene.txt")
        let trace = try scratch.write(Self.kept, to: "scene.jsonl")
        let outcome = try ChildProcess.run(
            Self.binary, ["--headless", "--script", script, "--trace", trace, "--force"], timeout: .seconds(60))
        #expect(outcome.status == 0, "\(outcome)")
        let written = try String(contentsOfFile: trace, encoding: .utf8)
        #expect(!written.contains(Self.kept) && written.contains("\"event\":"), "\(written)")
    }

    @Test("plot --out refuses an existing file, and --force replaces it")
    func plotOut() throws {
        let scratch = try ScratchDirectory()
        let script = try scratch.write("size 80x24\nwait 10s\nquit\n", to: "scene.txt")
        let trace = scratch.path("scene.jsonl").path
        let traced = try ChildProcess.run(
            Self.binary, ["--headless", "--script", script, "--trace", trace], timeout: .seconds(60))
        try #require(traced.status == 0, "\(traced)")
        let svg = try scratch.write(Self.kept, to: "timeline.svg")
        let refused = try ChildProcess.run(Self.binary, ["plot", trace, "--out", svg], timeout: .seconds(60))
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.error.contains("--out \"\(svg)\" exists") && refused.error.contains("--force"), "\(refused)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8) == Self.kept)
        let forced = try ChildProcess.run(Self.binary, ["plot", trace, "--out", svg, "--force"], timeout: .seconds(60))
        #expect(forced.status == 0, "\(forced)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).hasPrefix("<svg"))
    }
}
