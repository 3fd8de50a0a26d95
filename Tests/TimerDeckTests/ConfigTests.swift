import RunLoopKit
import TerminalUI
import TestSupport
import Testing

@testable import TimerDeck

@Suite("Config and script parsing (decisions.md 13)")
struct ConfigTests {
    @Test("The shipped default config parses to the built-in defaults")
    func shippedConfigMatchesDefaults() throws {
        let path = RepositoryFile.path("Resources/timerdeck.toml")
        let config = try Config.load(from: path)
        #expect(config == Config())
    }

    @Test("decision 13: the shipped config documents every field of the table with its default and range")
    func shippedConfigDocumentsEveryField() throws {
        let path = RepositoryFile.path("Resources/timerdeck.toml")
        let lines = try InputFile.read(path, role: "config file").split(separator: "\n")
        for field in Config.fields {
            let name = field.key.dropFirst(field.section.count + 1)
            let documented =
                lines.contains("\(name) = \(field.written(Config()))")
                || lines.contains { $0.hasPrefix("# \(name) = ") }
            #expect(documented, "\(field.key) = \(field.written(Config())) is not in \(path)")
            if let range = field.range {
                #expect(
                    lines.contains { $0.hasPrefix("#") && $0.contains(range) },
                    "the range \(range) of \(field.key) is not documented")
            }
        }
    }

    @Test("Every field is read")
    func fieldsAreRead() throws {
        let config = try Config.parse(
            """
            [gesture]
            quiet = "400ms"
            [log]
            capacity = 50
            [terminal]
            mouse = false
            """)
        #expect(config.gestureQuiet == .milliseconds(400) && config.logCapacity == 50 && !config.mouse)
    }

    @Test(
        "decision 13: out-of-range, negative, non-numeric and sub-millisecond values name field, value and range",
        arguments: [
            ("[log]\ncapacity = 0", "field 'log.capacity' = 0 is invalid (accepted: an integer 10…100000)"),
            ("[log]\ncapacity = -5", "field 'log.capacity' = -5 is invalid (accepted: an integer 10…100000)"),
            (
                "[log]\ncapacity = \"many\"",
                "field 'log.capacity' = \"many\" is invalid (accepted: an integer 10…100000)"
            ),
            ("[gesture]\nquiet = \"0ms\"", "field 'gesture.quiet' = \"0ms\" is invalid (accepted: a duration 1ms…10s"),
            ("[gesture]\nquiet = \"soon\"", "field 'gesture.quiet' = \"soon\" is invalid"),
            (
                "[uploads]\nsampler = \"gps\"",
                "field 'uploads.sampler' = \"gps\" is invalid (accepted: \"route\", \"host\" or \"loop\")"
            ),
            (
                "[[timers]]\nname = \"x\"\nmode = \"scrolling\"",
                "field 'timers.mode' = \"scrolling\" is invalid (accepted: \"default\", \"tracking\", \"modal\" or \"common\")"
            ),
        ])
    func invalidValuesAreNamed(text: String, expected: String) {
        #expect(throws: ConfigError.self) { try Config.parse(text) }
        do {
            _ = try Config.parse(text)
        } catch {
            #expect(error.message.contains(expected), "\(error.message)")
        }
    }

    @Test("Unknown fields and malformed TOML are errors with a place")
    func unknownFieldsAndSyntaxErrors() {
        do {
            _ = try Config.parse("[ticker]\nfsp = 60", source: "my.toml")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("my.toml:2: unknown field 'ticker.fsp' (known: gesture.quiet,"))
        }
        do {
            _ = try Config.parse("[ticker\nfps = 60", source: "my.toml")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.hasPrefix("my.toml:1:"))
        }
    }

    @Test("The fire log keeps the newest records up to its capacity")
    func fireLogIsBounded() {
        var log = FireLog(capacity: 3)
        for index in 0..<5 {
            log.append(
                FireRecord(
                    time: Instant(nanoseconds: Int64(index)), row: RowID(number: index), timer: "t\(index)",
                    mode: .default, lateness: .zero, ticks: 1))
        }
        #expect(log.count == 3 && log.totalAppended == 5)
        #expect(log[0].timer == "t2" && log[2].timer == "t4")
    }

    @Test("The ripple is a pure function of the frame")
    func rippleIsDeterministic() {
        let first = Ripple.render(frame: 42, width: 30, height: 6)
        #expect(first == Ripple.render(frame: 42, width: 30, height: 6))
        #expect(first != Ripple.render(frame: 43, width: 30, height: 6))
        #expect(first.count == 6 && first.allSatisfy { $0.count == 30 })
    }
}

@Suite("The [theme] section and --color")
struct ThemeConfigTests {
    @Test("A built-in theme, with roles' colours given by name, index and #rrggbb over it")
    func themeIsRead() throws {
        let config = try Config.parse(
            """
            [theme]
            accent = "#ff8700"
            bad = "bright-red"
            name = "light"
            dim = "244"
            good = ""
            """)
        #expect(config.theme[.accent] == .rgb(red: 0xFF, green: 0x87, blue: 0))
        #expect(config.theme[.bad] == .indexed(9))
        #expect(config.theme[.dim] == .indexed(244))
        #expect(config.theme[.good] == Theme.light[.good], "\"\" keeps the theme's")
        #expect(config.theme[.title] == Theme.light[.title])
        #expect(Config().theme == .dark)
    }

    @Test(
        "decision 13: a bad colour or theme names the file, the line, what is accepted and the name it is a typo of",
        arguments: [
            (
                "[theme]\nname = \"dark\"\naccent = \"gren\"",
                "my.toml:3: field 'theme.accent' = \"gren\" is invalid; did you mean \"green\"? (accepted: \"\" (the "
                    + "theme's) or a colour name"
            ),
            ("[theme]\nbad = \"#ff00\"", "my.toml:2: field 'theme.bad' = \"#ff00\" is invalid (accepted: \"\" (the"),
            ("[theme]\ntitle = 300", "my.toml:2: field 'theme.title' = 300 is invalid (accepted:"),
            ("[theme]\ntitle = \"300\"", "my.toml:2: field 'theme.title' = \"300\" is invalid (accepted:"),
            (
                "\n[theme]\nname = \"drak\"",
                "my.toml:3: field 'theme.name' = \"drak\" is invalid; did you mean \"dark\"? (accepted: \"dark\", "
                    + "\"light\" or \"ansi\")"
            ),
            ("[theme]\naccnet = \"red\"", "my.toml:2: unknown field 'theme.accnet'; did you mean 'theme.accent'?"),
        ])
    func badColour(text: String, message: String) {
        #expect {
            try Config.parse(text, source: "my.toml")
        } throws: { error in
            (error as? ConfigError)?.message.hasPrefix(message) == true
        }
    }

    @Test("--color takes auto, always or never, and names them otherwise")
    func colorOption() throws {
        #expect(try Config.validateColor("never") == .never)
        #expect {
            try Config.validateColor("allways")
        } throws: { error in
            (error as? ConfigError)?.message
                == "option --color: \"allways\" is invalid; did you mean \"always\"? (accepted: auto, always or never)"
        }
    }
}
