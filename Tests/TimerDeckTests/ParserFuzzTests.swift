import Glibc
import KeptTimers
import TestSupport
import Testing

@testable import TimerDeck
@testable import timerdeck

/// Seeded fuzzing of every parser of user input: each test feeds 100,000 generated inputs and
/// asserts "returns or throws, never traps" — a trap ends the test process, so running to
/// completion is the assertion. The seed is printed; `TIMERDECK_FUZZ_SEED=<seed>` repeats a run.
@Suite("Fuzzed user input: every parser returns or throws, never traps")
struct ParserFuzzTests {
    /// Inputs per parser; `TIMERDECK_FUZZ_INPUTS` changes it for a quick local run.
    static let inputs = getenv("TIMERDECK_FUZZ_INPUTS").flatMap { Int(String(cString: $0)) } ?? 100_000

    @Test("Durations: 100,000 generated texts")
    func durations() {
        var fuzz = FuzzInput("durations")
        let units = ["ms", "s", "m", "h", "", "us", "S", " s", "mss"]
        var parsed = 0
        for _ in 0..<Self.inputs {
            let text =
                switch fuzz.below(4) {
                case 0: fuzz.number() + fuzz.pick(units)
                case 1: fuzz.mutate(fuzz.number() + fuzz.pick(units))
                case 2: fuzz.bytes(maxCount: 12)
                default:
                    String(repeating: " ", count: fuzz.below(3)) + fuzz.number() + fuzz.pick(units)
                        + String(repeating: " ", count: fuzz.below(3))
                }
            if let duration = DurationText.parse(text) {
                parsed += 1
                #expect(duration >= .zero, "\(text) → \(duration)")
            }
        }
        #expect(parsed > 0, "the generator reached the accepting paths")
    }

    @Test("Headless scripts: 100,000 generated scripts")
    func headlessScripts() {
        var fuzz = FuzzInput("headless scripts")
        let commands = ["size", "key", "wait", "snapshot", "quit", "# note", "", "sizes", "KEY"]
        let arguments = ["80x24", "x", "1000x1000", "0x0", "enter", "shift-tab", "q", "3s", "250ms", "5m", ""]
        var accepted = 0
        for _ in 0..<Self.inputs {
            var lines: [String] = []
            for _ in 0..<(fuzz.below(5)) {
                var line = fuzz.pick(commands) + " "
                switch fuzz.below(4) {
                case 0: line += fuzz.pick(arguments)
                case 1:
                    line +=
                        fuzz.number() + fuzz.pick(["x", "ms", "s", "h", ""]) + (fuzz.below(2) == 0 ? fuzz.number() : "")
                case 2: line += fuzz.bytes(maxCount: 8)
                default: line = fuzz.mutate(line + fuzz.pick(arguments))
                }
                lines.append(line)
            }
            let text =
                fuzz.below(20) == 0
                ? fuzz.bytes(maxCount: 200) : lines.joined(separator: fuzz.pick(["\n", "\r\n", "\r"]))
            if (try? HeadlessScript(parsing: text)) != nil { accepted += 1 }
        }
        #expect(accepted > 0, "the generator reached the accepting paths")
    }

    @Test("Config files: 100,000 generated TOML texts")
    func configFiles() {
        var fuzz = FuzzInput("config files")
        // `[[timers]]` tables too: each timer key is written under its own array-of-tables header.
        let keys =
            Config.fields.map { ($0.section, $0.key.dropFirst($0.section.count + 1)) }
            + TimerDefinition.fields.map { ("[timers]", $0.key.dropFirst($0.section.count + 1)) }
        let values = [
            "60", "\"250ms\"", "\"common\"", "true", "\"\"", "1.5", "[1, 2]", "{ a = 1 }", "\"route\"", "1979-05-27",
            "\"tea\"", "\"dispatch\"", "\"now\"", "\"wall\"",
        ]
        var accepted = 0
        var acceptedTimers = 0
        for _ in 0..<Self.inputs {
            var text = ""
            for _ in 0..<(fuzz.below(4)) {
                let (section, key) = fuzz.pick(keys)
                let value =
                    switch fuzz.below(4) {
                    case 0: fuzz.pick(values)
                    case 1: fuzz.number()
                    case 2: "\"" + fuzz.number() + fuzz.pick(["ms", "s", "m", "h"]) + "\""
                    default: "\"" + fuzz.bytes(maxCount: 10).filter { $0 != "\"" && $0 != "\\" && !$0.isNewline } + "\""
                    }
                // A timer table gets a name most of the time, so the other fields are reached.
                let name =
                    section == "[timers]" && key != "name" && fuzz.below(4) != 0 ? "name = \"t\(fuzz.below(3))\"\n" : ""
                text += "[\(section)]\n\(name)\(key) = \(value)\n"
            }
            switch fuzz.below(10) {
            case 0: text = fuzz.bytes(maxCount: 100)
            case 1, 2: text = fuzz.mutate(text)
            default: break
            }
            if let config = try? Config.parse(text) {
                accepted += 1
                if !config.timers.isEmpty { acceptedTimers += 1 }
            }
        }
        #expect(accepted > 0, "the generator reached the accepting paths")
        #expect(acceptedTimers > 0, "the generator reached accepted [[timers]] tables")
    }

    @Test("Option values: 100,000 generated --fps texts are range-checked, never a trap")
    func optionValues() {
        var fuzz = FuzzInput("option values")
        var accepted = 0
        for _ in 0..<Self.inputs {
            let text = fuzz.below(4) == 0 ? fuzz.bytes(maxCount: 12) : fuzz.number()
            if let fps = try? Config.validateFPS(text) {
                accepted += 1
                #expect(Config.fpsRange.contains(fps))
            }
        }
        #expect(accepted > 0, "the generator reached the accepting paths")
    }

    /// ArgumentParser's parse costs about 3 ms in a debug build (it reflects over the command
    /// each time), so whole command lines get fewer inputs than the parsers above.
    static let commandLineInputs = max(1, inputs / 100)

    @Test("Command lines: generated argument lists through the command's parse, each exit status 0 or 2")
    func commandLines() {
        var fuzz = FuzzInput("command lines")
        let options = [
            "--fps", "--config", "--script", "--upload-url", "--outbox", "--headless", "--no-mouse",
            "--help", "--version", "-h", "--", "-", "--fps=", "--unknown",
        ]
        let values = [
            "/", "/tmp", "/nonexistent/x.toml", "", "-1", "60", "241", RepositoryFile.path("Resources/timerdeck.toml"),
        ]
        var accepted = 0
        for _ in 0..<Self.commandLineInputs {
            var arguments: [String] = []
            for _ in 0..<(fuzz.below(5)) {
                switch fuzz.below(5) {
                case 0, 1: arguments.append(fuzz.pick(options))
                case 2: arguments.append(fuzz.number())
                case 3: arguments.append(fuzz.pick(values))
                default: arguments.append(fuzz.bytes(maxCount: 10))
                }
            }
            do {
                let command = try TimerDeckCommand.parseAsRoot(arguments)
                if let command = command as? TimerDeckCommand {
                    _ = try command.settings()
                    accepted += 1
                }
            } catch let error as ConfigError {
                #expect(!error.message.isEmpty)
            } catch {
                let status = TimerDeckCommand.exitStatus(for: error)
                #expect(
                    status == 0 || status == 2, "\(arguments) → \(status): \(TimerDeckCommand.fullMessage(for: error))")
            }
        }
        #expect(accepted > 0, "the generator reached the accepting paths")
    }
}
