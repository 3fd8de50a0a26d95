import Glibc
import Testing

@testable import TimerDeck

@Suite("Bad config input: a clear error naming the field and the range, never a trap")
struct ConfigInputTests {
    @Test("decision 13: a duration that overflows is out of range, with the range in the message (no trap, exit 132)")
    func overflowingDurationIsOutOfRange() {
        #expect(
            parseError("[gesture]\nquiet = \"200000000000000000m\"")
                == "c.toml: field 'gesture.quiet' = \"200000000000000000m\" is invalid (accepted: a duration 1ms…10s, e.g. \"250ms\", \"3s\", \"5m\")"
        )
        #expect(parseError("[uploads]\nretry_cap = \"9999999999h\"").contains("(accepted: a duration 100ms…24h"))
    }

    @Test("decision 13: every numeric field names its range", arguments: Config.fields.filter { $0.range != nil })
    func everyRangedFieldRejectsOutOfRange(field: ConfigField<Config>) {
        let section = field.section
        let name = field.key.dropFirst(section.count + 1)
        let value = field.accepted.hasPrefix("an integer") ? "9223372036854775807" : "\"99999999h\""
        let message = parseError("[\(section)]\n\(name) = \(value)")
        #expect(message.contains("field '\(field.key)'") && message.contains(field.range ?? "?"), "\(message)")
    }

    @Test("A NUL byte in the config is refused with its line")
    func nulByteIsRefused() {
        #expect(
            parseError("[ticker]\nfps = 60\n# \0\n")
                == "c.toml:3: contains a NUL byte; a config file is plain UTF-8 text")
    }

    @Test(
        "Inputs the fuzzer found that make toml++ assert are refused first, with their line",
        arguments: [
            ("[uploads]\n[=ploads]\n", "c.toml:2: a section header needs a plain name"),
            ("[uploads]\n[\u{0C}ploads]\n", "c.toml:2: a section header needs a plain name"),
            ("[ticker]\n[", "c.toml:2: a section header needs a plain name, e.g. [uploads]"),
            ("[[ ", "c.toml:1: a section header needs a plain name"),
            ("[\u{BF}uploads]\n", "c.toml:1: a section header needs a plain name"),
            ("[ticker]\n\u{BF}fps = 60\n", "c.toml:2: expected a field as name = value"),
            ("[ticker]\nfps = ,\n", "c.toml:2: a value is a quoted string"),
            ("[ticker]\nfps = [1,,2]\n", "c.toml:2: a value is a quoted string"),
            ("[ticker]\nmode = \"\"\"\n", "c.toml:2: a value is a quoted string"),
        ])
    func inputsThatMakeTheTOMLParserAssert(text: String, expected: String) {
        #expect(parseError(text).hasPrefix(expected), "\(parseError(text))")
    }

    @Test("Non-ASCII text inside quoted strings and comments is still accepted")
    func nonASCIIInStringsAndComments() throws {
        let config = try Config.parse("# Fahrplan für die Woche\n[uploads] # Überblick\nroute = \"Wege/größer.gpx\"\n")
        #expect(config.uploads.routePath == "Wege/größer.gpx")
    }

    @Test("A huge string value is quoted as a short prefix with its length")
    func hugeValueIsCut() {
        let huge = String(repeating: "a", count: 5_000_000)
        let message = parseError("[uploads]\nsampler = \"\(huge)\"")
        #expect(message.count < 300, "\(message.prefix(400))")
        #expect(message.contains("(5000000 characters)"))
    }

    @Test("A value outside any section and an unknown section are errors that list the sections")
    func valuesOutsideSections() {
        #expect(
            parseError("fps = 60").hasPrefix(
                "c.toml: \"fps\" is not a section; every field belongs in one (known: [gesture], [log],"))
        #expect(
            parseError("[tickr]\nfps = 60").hasPrefix(
                "c.toml: unknown field \"tickr.fps\" (known: gesture.quiet, log.capacity,"))
        #expect(
            parseError("[ticker.sub]\nx = 1")
                == "c.toml:1: a section header is [name] or [[name]] with a plain name, e.g. [uploads] or [[timers]]")
        #expect(
            parseError("[ticker]\nfps = [60]")
                == "c.toml:2: a value is a quoted string (\"…\"), a whole number, true or false")
    }

    @Test("Wrong types are named: a float, a string for a number, a number for a flag")
    func wrongTypes() {
        #expect(
            parseError("[log]\ncapacity = 1.5")
                == "c.toml: field 'log.capacity' = 1.5 is invalid (accepted: an integer 10…100000)")
        #expect(
            parseError("[terminal]\nmouse = 1")
                == "c.toml: field 'terminal.mouse' = 1 is invalid (accepted: true or false)")
        #expect(
            parseError("[uploads]\nsampler = \"gps\"")
                == "c.toml: field 'uploads.sampler' = \"gps\" is invalid (accepted: \"route\", \"host\" or \"loop\")")
        #expect(
            parseError("[uploads]\nroute = \"\"")
                == "c.toml: field 'uploads.route' = \"\" is invalid (accepted: a path to a GPX file)")
    }

    @Test("An integer literal beyond 64 bits is a syntax error with its line")
    func hugeIntegerLiteral() {
        #expect(parseError("[ticker]\nfps = 99999999999999999999999").hasPrefix("c.toml:2:"))
    }

    @Test("decision 13: --fps is range-checked as text, so -1 and overflowing values name the range")
    func fpsOptionIsChecked() throws {
        #expect(try Config.validateFPS("30") == 30)
        for text in ["-1", "0", "500", "abc", "", "99999999999999999999999"] {
            #expect(throws: ConfigError(message: "option --fps: \"\(text)\" is invalid (accepted: an integer 1…240)")) {
                try Config.validateFPS(text)
            }
        }
    }

    @Test("A directory, a missing file and a non-UTF-8 file are refused as config files")
    func unreadableFiles() throws {
        #expect(loadError("/tmp") == "config file \"/tmp\" is a directory; give the path of a file in it")
        #expect(
            loadError("/nonexistent/timerdeck.toml")
                == "cannot read config file \"/nonexistent/timerdeck.toml\": No such file or directory")
        let path = "/tmp/timerdeck-config-tests-\(getpid()).toml"
        defer { unlink(path) }
        let file = try #require(fopen(path, "w"))
        fputs("[ticker]\nmode = \"\u{FF}\"", file)
        fwrite([UInt8(0xFF), 0xFE], 1, 2, file)
        fclose(file)
        #expect(loadError(path) == "config file \"\(path)\" is not UTF-8 text")
    }

    private func parseError(_ text: String) -> String {
        do {
            _ = try Config.parse(text, source: "c.toml")
            return "(no error)"
        } catch {
            return error.message
        }
    }

    private func loadError(_ path: String) -> String {
        do {
            _ = try Config.load(from: path)
            return "(no error)"
        } catch {
            return error.message
        }
    }
}
