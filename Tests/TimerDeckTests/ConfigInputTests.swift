import Glibc
import Testing

@testable import TimerDeck

@Suite("Bad config input: a clear error naming the field and the range, never a trap")
struct ConfigInputTests {
    @Test("decision 13: a duration that overflows is out of range, with the range in the message (no trap, exit 132)")
    func overflowingDurationIsOutOfRange() {
        #expect(
            parseConfigError("[gesture]\nquiet = \"200000000000000000m\"")
                == "c.toml:2: field 'gesture.quiet' = \"200000000000000000m\" is invalid (accepted: a duration 1ms…10s, e.g. \"250ms\", \"3s\", \"5m\")"
        )
        #expect(parseConfigError("[uploads]\nretry_cap = \"9999999999h\"").contains("(accepted: a duration 100ms…24h"))
    }

    @Test("decision 13: every numeric field names its range", arguments: Config.fields.filter { $0.range != nil })
    func everyRangedFieldRejectsOutOfRange(field: ConfigField<Config>) {
        let section = field.section
        let name = field.key.dropFirst(section.count + 1)
        let value = field.accepted.hasPrefix("an integer") ? "9223372036854775807" : "\"99999999h\""
        let message = parseConfigError("[\(section)]\n\(name) = \(value)")
        #expect(message.contains("field '\(field.key)'") && message.contains(field.range ?? "?"), "\(message)")
    }

    @Test("A NUL byte in the config is refused with its line")
    func nulByteIsRefused() {
        #expect(
            parseConfigError("[ticker]\nfps = 60\n# \0\n")
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
            ("[ticker]\nfps = ,\n", "c.toml:2: field 'ticker.fps': a value is a quoted string"),
            ("[ticker]\nfps = [1,,2]\n", "c.toml:2: field 'ticker.fps': arrays ([…]) are not supported"),
            ("[ticker]\nmode = \"\"\"\n", "c.toml:2: field 'ticker.mode': multi-line strings"),
        ])
    func inputsThatMakeTheTOMLParserAssert(text: String, expected: String) {
        #expect(parseConfigError(text).hasPrefix(expected), "\(parseConfigError(text))")
    }

    @Test("Non-ASCII text inside quoted strings and comments is still accepted")
    func nonASCIIInStringsAndComments() throws {
        let config = try Config.parse("# Fahrplan für die Woche\n[uploads] # Überblick\nroute = \"Wege/größer.gpx\"\n")
        #expect(config.uploads.routePath == "Wege/größer.gpx")
    }

    @Test("A huge string value is quoted as a short prefix with its length")
    func hugeValueIsCut() {
        let huge = String(repeating: "a", count: 5_000_000)
        let message = parseConfigError("[uploads]\nsampler = \"\(huge)\"")
        #expect(message.count < 300, "\(message.prefix(400))")
        #expect(message.contains("(5000000 characters)"))
    }

    @Test("A value outside any section and an unknown section are errors that list the sections")
    func valuesOutsideSections() {
        #expect(
            parseConfigError("fps = 60").hasPrefix(
                "c.toml:1: 'fps' is not a section; every field belongs in one (known: [gesture], [log],"))
        #expect(
            parseConfigError("[tickr]\nfps = 60").hasPrefix(
                "c.toml:2: unknown field 'tickr.fps' (known: gesture.quiet, log.capacity,"))
        #expect(
            parseConfigError("[ticker.sub]\nx = 1")
                == "c.toml:1: dotted section names ([a.b]) are not supported: sections are [name] or [[name]], "
                + "e.g. [uploads] or [[timers]]")
        #expect(
            parseConfigError("[ticker]\nfps = [60]")
                == "c.toml:2: field 'ticker.fps': arrays ([…]) are not supported: a field takes one value")
    }

    @Test("Wrong types are named: a float, a string for a number, a number for a flag")
    func wrongTypes() {
        #expect(
            parseConfigError("[log]\ncapacity = 1.5")
                == "c.toml:2: field 'log.capacity' = 1.5 is invalid (accepted: an integer 10…100000)")
        #expect(
            parseConfigError("[terminal]\nmouse = 1")
                == "c.toml:2: field 'terminal.mouse' = 1 is invalid (accepted: true or false)")
        #expect(
            parseConfigError("[uploads]\nsampler = \"gps\"")
                == "c.toml:2: field 'uploads.sampler' = \"gps\" is invalid (accepted: \"route\", \"host\" or \"loop\")")
        #expect(
            parseConfigError("[uploads]\nroute = \"\"")
                == "c.toml:2: field 'uploads.route' = \"\" is invalid (accepted: a path to a GPX file)")
    }

    @Test("An integer literal beyond 64 bits names the field's own range, with its line")
    func hugeIntegerLiteral() {
        #expect(
            parseConfigError("[log]\ncapacity = 99999999999999999999999")
                == "c.toml:2: field 'log.capacity' = 99999999999999999999999 is invalid (accepted: an integer 10…100000)"
        )
        #expect(
            parseConfigError("[[timers]]\nname = \"a\"\nrefresh_rate = -99999999999999999999999")
                == "c.toml:3: field 'timers.refresh_rate' = -99999999999999999999999 is invalid (accepted: an integer 1…240)"
        )
        #expect(
            parseConfigError("[time]\nsleep = 99999999999999999999999")
                == "c.toml:2: field 'time.sleep' = 99999999999999999999999 is invalid (accepted: a duration 1s…24h, "
                + "e.g. \"250ms\", \"3s\", \"5m\")")
        // A field no table knows has no range of its own.
        #expect(
            parseConfigError("[ticker]\nfps = 99999999999999999999999")
                == "c.toml:2: field 'ticker.fps': \"99999999999999999999999\" is too large for a whole number "
                + "(accepted: -9223372036854775808…9223372036854775807)")
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

    private func loadError(_ path: String) -> String {
        do {
            _ = try Config.load(from: path)
            return "(no error)"
        } catch {
            return error.message
        }
    }
}

@Suite("The parts of TOML a config does not take are named, with the line and the field")
struct UnsupportedTOMLTests {
    @Test(
        "Each unsupported form has its own message",
        arguments: [
            (
                "[log]\ncapacity = 12345678901234567890123456\n",
                "c.toml:2: field 'log.capacity' = 12345678901234567890123456 is invalid (accepted: an integer 10…100000)"
            ),
            (
                "[uploads]\nroute = \"\"\"a.gpx\"\"\"\n",
                "c.toml:2: field 'uploads.route': multi-line strings (\"\"\" or ''') are not supported: write the value on one line in \"…\""
            ),
            (
                "[log]\ncapacity = 01_000\n",
                "c.toml:2: field 'log.capacity': \"01_000\" is not a number as TOML writes it: a _ stands only between "
                    + "two digits (1_000) and a whole number has no leading zero"
            ),
            (
                "[[timers]]\nname = \"a\"\nrefresh_rate = 1__0\n",
                "c.toml:3: field 'timers.refresh_rate': \"1__0\" is not a number as TOML writes it: a _ stands only "
                    + "between two digits (1_000) and a whole number has no leading zero"
            ),
            (
                "[log]\ncapacity = 1.5_e3\n",
                "c.toml:2: field 'log.capacity': \"1.5_e3\" is not a number as TOML writes it: a _ stands only between "
                    + "two digits (1_000) and a whole number has no leading zero"
            ),
            (
                "[uploads]\nroute = \"C:\\maps\\x.gpx\"\n",
                "c.toml:2: field 'uploads.route': the escape \\m is not one TOML has (accepted: \\\\, \\\", \\t, \\n, "
                    + "\\r, \\b, \\f, \\uXXXX or \\UXXXXXXXX naming a Unicode scalar); write a backslash as \\\\ or "
                    + "the value in '…'"
            ),
            (
                "[uploads]\njob = \"a\\uD800\"\n",
                "c.toml:2: field 'uploads.job': the escape \\uD800 is not one TOML has (accepted: \\\\, \\\", \\t, "
                    + "\\n, \\r, \\b, \\f, \\uXXXX or \\UXXXXXXXX naming a Unicode scalar); write a backslash as \\\\ "
                    + "or the value in '…'"
            ),
            (
                "[log]\ncapacity = [10, 20]\n",
                "c.toml:2: field 'log.capacity': arrays ([…]) are not supported: a field takes one value"
            ),
            (
                "[log]\ncapacity = { n = 10 }\n",
                "c.toml:2: field 'log.capacity': inline tables ({…}) are not supported: write a [section] with one field per line"
            ),
            (
                "[log]\n\"capacity\" = 10\n",
                "c.toml:2: quoted keys (\"name\" = …) are not supported: write the field's plain name (letters, digits, _ or -)"
            ),
            (
                "log.capacity = 10\n",
                "c.toml:1: dotted keys (log.… = …) are not supported: write [log] and one field per line below it"
            ),
            (
                "[log]\ncapacity = 0x10\n",
                "c.toml:2: field 'log.capacity': hexadecimal, octal and binary numbers are not supported: write the number in decimal"
            ),
            (
                "[[timers]]\nname = \"a\"\nfirst_fire = 07:30:00\n",
                "c.toml:3: field 'timers.first_fire': dates and times are not supported: a time of day is a string, e.g. first_fire = \"07:30\""
            ),
            (
                "[[timers]]\nname = \"a\"\nfirst_fire = 1979-05-27\n",
                "c.toml:3: field 'timers.first_fire': dates and times are not supported: a time of day is a string, e.g. first_fire = \"07:30\""
            ),
        ])
    func unsupported(text: String, expected: String) {
        #expect(parseConfigError(text) == expected)
    }

    @Test(
        "A section opened twice, a name both [x] and [[x]], and a field set twice are named with both lines",
        arguments: [
            (
                "[log]\ncapacity = 50\n\n[log]\ncapacity = 60\n",
                "c.toml:4: section [log] is already opened on line 1; write all its fields under that one [log]"
            ),
            (
                "[[timers]]\nname = \"a\"\n[timers]\nname = \"b\"\n",
                "c.toml:3: [timers] follows [[timers]] on line 1; a name is one [timers] table or a list of [[timers]] "
                    + "tables, not both"
            ),
            (
                "[log]\ncapacity = 50\n[[log]]\n",
                "c.toml:3: [[log]] follows [log] on line 1; a name is one [log] table or a list of [[log]] tables, not both"
            ),
            (
                "log = 1\n[log]\n",
                "c.toml:2: [log] has the name of the value 'log' on line 1, which stands above every section; every "
                    + "field belongs in one, e.g. [log] then capacity = 1000"
            ),
            (
                "[log]\ncapacity = 50\n# more\ncapacity = 60\n",
                "c.toml:4: field 'log.capacity' is already set on line 2; keep one of the two"
            ),
            (
                "[[timers]]\nname = \"a\"\n[[timers]]\nname = \"b\"\nname = \"c\"\n",
                "c.toml:5: field 'timers.name' is already set on line 4; keep one of the two"
            ),
        ])
    func repeatedSectionsAndFields(text: String, expected: String) {
        #expect(parseConfigError(text) == expected)
    }

    @Test("An unknown field names the known one it is closest to, if one is a typo away")
    func unknownFieldSuggestsTheClosest() {
        let timers = TimerDefinition.fields.map(\.key).joined(separator: ", ")
        #expect(
            parseConfigError("[[timers]]\nname = \"tea\"\nintervall = \"3s\"\n")
                == "c.toml:3: timer \"tea\": unknown field 'timers.intervall'; did you mean 'timers.interval'? "
                + "(known: \(timers))")
        #expect(
            parseConfigError("[[timers]]\nname = \"tea\"\ncolour = \"red\"\n")
                == "c.toml:3: timer \"tea\": unknown field 'timers.colour' (known: \(timers))")
        let fields = Config.fields.map(\.key).joined(separator: ", ")
        #expect(
            parseConfigError("[log]\ncapasity = 50\n")
                == "c.toml:2: unknown field 'log.capasity'; did you mean 'log.capacity'? (known: \(fields))")
        #expect(
            parseConfigError("[uplods]\nurl = \"\"\n")
                == "c.toml:2: unknown field 'uplods.url'; did you mean 'uploads.url'? (known: \(fields))")
        #expect(
            parseConfigError("[uploads]\nsmapler = \"host\"\n")
                == "c.toml:2: unknown field 'uploads.smapler'; did you mean 'uploads.sampler'? (known: \(fields))")
    }

    @Test("Numbers with _ between digits, a zero, fractions with leading zeros, and TOML's escapes are read")
    func wellFormedNumbers() throws {
        #expect(try Config.parse("[uploads]\njob = \"a\\t\\\"\\u00e9\\U0001F600\\\\\"\n").uploads.job == "a\t\"é😀\\")
        #expect(try Config.parse("[log]\ncapacity = 1_000\n").logCapacity == 1_000)
        #expect(try Config.parse("[uploads]\nkeep_delivered_count = 0\n").uploads.retention.count == nil)
        #expect(
            parseConfigError("[log]\ncapacity = 0.05\n").hasSuffix("= 0.05 is invalid (accepted: an integer 10…100000)")
        )
    }

    @Test("A byte order mark at the start is no part of the text; one elsewhere is named")
    func byteOrderMark() throws {
        let config = try Config.parse("\u{FEFF}[log]\ncapacity = 50\n")
        #expect(config.logCapacity == 50)
        #expect(
            parseConfigError("[log]\n\u{FEFF}capacity = 50\n")
                == "c.toml:2: a byte order mark (U+FEFF) stands where a field should; save the file as UTF-8 without one"
        )
    }

    @Test("A field accepted but doing nothing for its timer is refused, naming it and why")
    func ignoredFieldsAreRefused() {
        #expect(
            parseConfigError("[[timers]]\nname = \"link\"\nmechanism = \"displaylink\"\ninterval = \"1s\"\n")
                == "c.toml:4: timer \"link\": field 'timers.interval' does nothing for a display link, which fires once a frame at refresh_rate Hz on the uptime clock (accepted: leave it out)"
        )
        #expect(
            parseConfigError("[[timers]]\nname = \"tea\"\nrefresh_rate = 30\n")
                == "c.toml:3: timer \"tea\": field 'timers.refresh_rate' does nothing for mechanism = \"runloop\"; only a display link has a refresh rate (accepted: leave it out)"
        )
        #expect(
            parseConfigError("[[timers]]\nname = \"tea\"\ncountdown = 30\n")
                == "c.toml:3: timer \"tea\": field 'timers.countdown' does nothing for a timer that drives no countdown (accepted: leave it out)"
        )
        for field in ["bell = true", "flash = true", "notify = true", "hook = \"touch x\"", "act_on = \"fire\""] {
            #expect(
                parseConfigError("[[timers]]\nname = \"link\"\nmechanism = \"displaylink\"\n\(field)\n")
                    .hasSuffix(
                        "does nothing for a display link, whose frames only draw (a skip is logged; nothing rings, "
                            + "flashes or runs) (accepted: leave it out)"),
                "\(field)")
        }
        #expect(
            parseConfigError("[[timers]]\nname = \"tea\"\nhook_limit = \"5s\"\n")
                == "c.toml:3: timer \"tea\": field 'timers.hook_limit' does nothing for a timer without a hook (accepted: leave it out)"
        )
    }
}

/// The message `Config.parse` gives for `text` read as "c.toml", or "(no error)".
func parseConfigError(_ text: String) -> String {
    do {
        _ = try Config.parse(text, source: "c.toml")
        return "(no error)"
    } catch {
        return error.message
    }
}
