import Foundation
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck
@testable import timerdeck

/// `Docs/Manual.md`, `timerdeck --help` and the manual page tell the same keys, config fields and
/// trace fields as the code: the manual's generated tables equal the tables they are made from,
/// the help of the installed binary carries them in plain ASCII, and the manual page
/// (`timerdeck manual-page`) gives each its own section.
///
/// `TIMERDECK_RECORD_MANUAL=1 swift test --filter ManualTests` rewrites the generated tables.
@Suite("The manual and --help come from the code's tables", .serialized)
struct ManualTests {
    static let manualPath = RepositoryFile.path("Docs/Manual.md")

    /// The text between `<!-- generated: NAME …` and the next `<!-- end -->` in `text`.
    static func generated(_ name: String, in text: String) -> Range<String.Index>? {
        guard let marker = text.range(of: "<!-- generated: \(name) "),
            let markerEnd = text[marker.upperBound...].range(of: "-->\n"),
            let end = text[markerEnd.upperBound...].range(of: "<!-- end -->")
        else { return nil }
        return markerEnd.upperBound..<end.lowerBound
    }

    /// Checks (or, when recording, rewrites) the manual's generated table `name`.
    static func expectTable(_ name: String, equals table: String) throws {
        var manual = try String(contentsOfFile: manualPath, encoding: .utf8)
        let range = try #require(generated(name, in: manual), "Docs/Manual.md has no generated table \(name)")
        if ProcessInfo.processInfo.environment["TIMERDECK_RECORD_MANUAL"] == "1" {
            manual.replaceSubrange(range, with: table + "\n")
            try manual.write(toFile: manualPath, atomically: true, encoding: .utf8)
        } else {
            #expect(String(manual[range]) == table + "\n", "the manual's \(name) table differs; expected:\n\(table)")
        }
    }

    @Test("The manual's key table is the key guide's")
    func keyTable() throws {
        try Self.expectTable("keys", equals: KeyGuide.markdownTable)
    }

    @Test("The manual's config table is the config's field tables")
    func configTable() throws {
        try Self.expectTable("config fields", equals: CommandHelp.configMarkdownTable)
    }

    @Test("The manual's trace table is the trace's field table")
    func traceTable() throws {
        try Self.expectTable("trace fields", equals: TraceFile.markdownTable)
    }

    @Test("The manual's files and exit-status tables are the help's")
    func filesAndExitTables() throws {
        try Self.expectTable("files", equals: CommandHelp.filesMarkdownTable)
        try Self.expectTable("exit statuses", equals: CommandHelp.exitMarkdownTable)
    }

    @Test("Every [keys] action is told once in the key guide, with its default key among the entry's keys")
    func everyActionIsGuided() {
        for action in KeyAction.allCases {
            let entries = KeyGuide.entries.filter { $0.actions.contains(action) }
            #expect(entries.count == 1, "\(action.rawValue) is in \(entries.count) entries")
            let key = KeyAction.name(of: action.defaultKey)
            #expect(
                entries.allSatisfy {
                    $0.keys.split(separator: " ").contains(Substring(key)) || $0.summary.contains(key)
                },
                "\(action.rawValue)'s key \(key) is not named in its entry")
        }
    }

    @Test("The help overlay's key lines are the key guide's")
    func overlayLines() {
        #expect(Keymap.help(KeyBindings()) == KeyGuide.entries.map(\.overlayLine))
        #expect(Keymap.help(KeyBindings()).first == "Tab / Shift-Tab   focus the next / previous panel")
    }

    @Test("A trace line carries only fields the trace table names")
    func traceFieldsAreDocumented() throws {
        let trace = try String(
            contentsOfFile: RepositoryFile.path("Tests/TimerDeckTests/Traces/readme-scene.jsonl"), encoding: .utf8)
        let documented = Set(TraceFile.fields.map(\.name))
        var written: Set<String> = []
        for line in trace.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            written.formUnion(object.keys)
        }
        #expect(written.isSubset(of: documented), "undocumented: \(written.subtracting(documented).sorted())")
        #expect(written.contains("lateness_ns") && written.contains("depth"))
    }

    @Test("The documented hook environment is the one a hook gets")
    func hookEnvironmentIsDocumented() throws {
        var definition = TimerDefinition()
        definition.name = "tea"
        definition.actions.hook = "true"
        var state = DashboardState(
            scene: Scene(timers: [definition], uploadsLabel: nil, gestureQuiet: .seconds(1), logCapacity: 100),
            size: DashboardLayout.minimumSize, startTime: Instant(nanoseconds: 0))
        let effects = state.apply(
            .fired(
                RowID(number: 0),
                .scheduled(at: Instant(nanoseconds: 1_000_000_000))))
        let environment = try #require(
            effects.lazy.compactMap { if case .runHook(_, _, let environment) = $0 { environment } else { nil } }
                .first)
        let documented = try #require(CommandHelp.files.first { $0.name.contains("TIMERDECK_") }).name
            .split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
        #expect(Set(documented) == Set(environment.keys))
    }

    @Test("--help carries the keys, the config's fields, files, trace fields and exit statuses")
    func helpCoversTheManual() {
        let help = TimerDeckCommand.helpMessage(columns: 80)
        for heading in [
            "KEYS", "CONFIG (--config FILE)", "FILES AND ENVIRONMENT", "TRACE (--trace FILE)", "EXIT STATUS",
        ] {
            #expect(help.contains(heading), "no \(heading)")
        }
        let names =
            Config.fields.map { String($0.key.split(separator: ".")[1]) }
            + TimerDefinition.fields.map { String($0.key.dropFirst("timers.".count)) }
            + KeyAction.allCases.map(\.rawValue) + TraceFile.fields.map(\.name)
            + ["XDG_STATE_HOME", "TIMERDECK_TIMER", "TIMERDECK_TICKS", "--print-config"]
        for name in names {
            #expect(help.contains(name), "--help does not name \(name)")
        }
        #expect(!help.contains("README"))
    }

    @Test("--help is plain ASCII in lines that fit 80 columns, without blank lines (1 to 240)")
    func helpIsASCII() {
        let help = TimerDeckCommand.helpMessage(columns: 80)
        let foreign = help.unicodeScalars.filter { !$0.isASCII }.map(String.init)
        #expect(foreign.isEmpty, "not ASCII: \(Set(foreign).sorted())")
        #expect(help.split(whereSeparator: \.isWhitespace).joined(separator: " ").contains("Hz (1 to 240)"))
        for line in CommandHelp.discussion.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.count <= CommandHelp.width, "too long: \(line)")
            #expect(line.contains { !$0.isWhitespace }, "a blank line")
        }
    }

    /// The lines of `page` from its `.SH title` to the next section.
    static func section(_ title: String, of page: String) -> String {
        let heading = title.contains(" ") ? ".SH \"\(title)\"" : ".SH \(title)"
        guard let start = page.range(of: "\n\(heading)\n") else { return "" }
        let rest = page[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex)])
    }

    @Test(
        "The manual page: section 1's header, its sections in order, and an option, a key, a file and a status in theirs"
    )
    func manualPage() throws {
        let page = try ManualPageCommand.page(date: "2026-01-31")
        let lines = page.split(separator: "\n").map(String.init)
        #expect(lines.first == #".TH TIMERDECK 1 2026-01-31 "timerdeck 0.1.0" "General Commands Manual""#)
        #expect(
            lines.prefix(4).contains(".nh") && lines.prefix(4).contains(".nr HY 0"),
            "hyphenation off, and kept off after a synopsis or an example: no path or field name split across lines")
        let sections = lines.filter { $0.hasPrefix(".SH ") }.map { String($0.dropFirst(4)).replacing("\"", with: "") }
        #expect(sections == ManualPage.sections)
        let expected = [
            "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES",
            "SEE ALSO",
        ]
        #expect(sections.filter(expected.contains) == expected)

        #expect(Self.section("SYNOPSIS", of: page).contains(".OP \\-\\-config FILE"))
        let options = Self.section("OPTIONS", of: page)
        #expect(options.contains(".TP\n\\fB\\-\\-config\\fR \\fIFILE\\fR\nA config file (TOML);"))
        #expect(options.contains(".SS \"Upload credentials\"\n.TP\n\\fB\\-\\-upload\\-username\\fR \\fINAME\\fR"))
        #expect(!options.contains("manual\\-page"), "the hidden command is not listed")
        #expect(Self.section("COMMANDS", of: page).contains(".SS plot"))
        let keys = Self.section("KEYS", of: page)
        #expect(keys.contains(".TP\n\\fBTab\\fR / \\fBShift\\-Tab\\fR\nfocus the next / previous panel"))
        #expect(keys.components(separatedBy: ".TP\n").count - 1 == KeyGuide.entries.count)
        #expect(Self.section("CONFIGURATION", of: page).contains("\\fB[uploads]\\fR"))
        #expect(Self.section("TRACE FILE", of: page).contains("\\fBlateness_ns\\fR"))
        let files = Self.section("FILES", of: page)
        #expect(files.contains(".TP\n\\fI$XDG_STATE_HOME/timerdeck/outbox.sqlite\\fR\n"))
        #expect(!files.contains("NO_COLOR"))
        let environment = Self.section("ENVIRONMENT", of: page)
        #expect(
            environment.contains(".TP\n\\fBNO_COLOR\\fR\n") && environment.contains(".TQ\n\\fBTIMERDECK_TICKS\\fR\n"))
        #expect(Self.section("EXIT STATUS", of: page).contains(".TP\n\\fB2\\fR\nbad input:"))
        #expect(Self.section("EXAMPLES", of: page).contains(".EX\ntimerdeck \\-\\-print\\-config > my.toml\n"))

        #expect(!page.contains("--"), "an option's dashes are minus signs (\\-), not hyphens to break a line at")
        #expect(!page.contains("\n KEYS\n"), "the help's indented sections are not in the page")
        for line in lines {
            #expect(line.utf8.count <= 80, "a line longer than 80 bytes: \(line)")
            #expect(line.unicodeScalars.allSatisfy { $0.isASCII }, "not ASCII: \(line)")
            #expect(!line.isEmpty && !line.hasPrefix("'"), "a blank line or a line read as a request: \(line)")
        }
    }

    @Test("The usage shows the dashboard without a subcommand, and plot as one; the options name FILE, PATH, N")
    func usageNeedsNoSubcommand() {
        let help = TimerDeckCommand.helpMessage(columns: 80)
        let usage = help.components(separatedBy: "USAGE: ").dropFirst().first?.components(separatedBy: "\n\n").first
        #expect(usage?.hasPrefix("timerdeck [--config FILE]") == true)
        #expect(usage?.contains("<subcommand>") == false)
        #expect(usage?.contains("timerdeck plot TRACE --out FILE") == true)
        #expect(help.contains("--config <FILE>") && help.contains("--outbox <PATH>") && help.contains("--fps <N>"))
    }
}
