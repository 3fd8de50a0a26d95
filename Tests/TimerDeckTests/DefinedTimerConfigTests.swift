import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

@Suite("[[timers]] in the config: decoded through the field table, checked with clear errors (decision 13)")
struct DefinedTimerConfigTests {
    @Test("Every field of a [[timers]] table is read, in the file's order")
    func timersAreRead() throws {
        let config = try Config.parse(
            """
            [[timers]]
            name = "tea"
            mechanism = "dispatch"
            interval = "3m"
            repeats = false
            tolerance = "1s"
            clock = "wall"
            first_fire = "now"
            start = false

            [[timers]] # a second one
            name = "beat"
            interval = "250ms"
            mode = "common"

            [[timers]]
            name = "post"
            mechanism = "main-queue"
            """)
        #expect(config.timers.map(\.name) == ["tea", "beat", "post"])
        #expect(config.timers[2].kind == .mainQueue)
        let tea = config.timers[0]
        #expect(tea.kind == .dispatch && tea.interval == .seconds(180) && !tea.repeats)
        #expect(tea.tolerance == .seconds(1) && tea.clock == .wall && tea.firstFire == .now && !tea.startsAtLaunch)
        let beat = config.timers[1]
        #expect(beat.kind == .runLoop && beat.interval == .milliseconds(250) && beat.repeats)
        #expect(
            beat.mode == .common && beat.clock == .uptime && beat.firstFire == .afterInterval && beat.startsAtLaunch)
    }

    @Test(
        "decision 13: an invalid timer names the timer, the field, the value and what is accepted",
        arguments: [
            (
                "[[timers]]\nname = \"tea\"\ninterval = \"0ms\"",
                "config:3: timer \"tea\": field 'timers.interval' = \"0ms\" is invalid (accepted: a duration 1ms…24h"
            ),
            (
                "[[timers]]\nname = \"tea\"\nmechanism = \"cron\"",
                "config:3: timer \"tea\": field 'timers.mechanism' = \"cron\" is invalid (accepted: \"runloop\", \"dispatch\", \"main-queue\", \"displaylink\", \"task\" or \"alarm\")"
            ),
            (
                "[[timers]]\nname = \"tea\"\nmode = \"fast\"",
                "config:3: timer \"tea\": field 'timers.mode' = \"fast\" is invalid (accepted: \"default\", \"tracking\", \"modal\" or \"common\")"
            ),
            (
                "[[timers]]\nname = \"a b\"",
                "config:2: timer \"a b\": field 'timers.name' = \"a b\" is invalid (accepted: 1…24 letters, digits, - or _)"
            ),
            (
                "[[timers]]\ninterval = \"1s\"",
                "config:1: a [[timers]] table without a name: field 'timers.name' = \"\" is invalid"
            ),
            (
                "[[timers]]\nname = \"tea\"\nclock = \"wall\"",
                "config:3: timer \"tea\": field 'timers.clock' = \"wall\" is invalid for mechanism = \"runloop\" (accepted: \"uptime\""
            ),
            (
                "[[timers]]\nname = \"tea\"\nmechanism = \"dispatch\"\nmode = \"common\"",
                "config:4: timer \"tea\": field 'timers.mode' is set for a dispatch timer, which has no mode (G1)"
            ),
            (
                "[[timers]]\nname = \"tea\"\ncolour = \"red\"",
                "config:3: timer \"tea\": unknown field 'timers.colour' (known: timers.name, timers.mechanism"
            ),
            (
                "[[timers]]\nname = \"tea\"\n[[timers]]\nname = \"tea\"",
                "config:4: timer \"tea\": field 'timers.name' is already used by another timer"
            ),
            (
                "[[timers]]\nname = \"tea\"\nfirst_fire = \"24:00\"",
                "config:3: timer \"tea\": field 'timers.first_fire' = \"24:00\" is invalid (accepted: \"now\", "
                    + "\"after-interval\", a local time of day \"HH:MM\" or \"HH:MM:SS\", or a local date and time "
                    + "\"YYYY-MM-DDTHH:MM\" or \"YYYY-MM-DDTHH:MM:SS\")"
            ),
            (
                "[[timers]]\nname = \"tea\"\ndrives = \"ripple\"",
                "config:3: timer \"tea\": field 'timers.drives' = \"ripple\" is invalid for mechanism = \"runloop\" "
                    + "(accepted: mechanism = \"displaylink\")"
            ),
            (
                "[[timers]]\nname = \"sms\"\ndrives = \"countdown\"\nrepeats = false",
                "config:3: timer \"sms\": field 'timers.drives' = \"countdown\" is invalid for a display link or a one-shot"
            ),
            (
                "[[timers]]\nname = \"up\"\ndrives = \"uploads\"\ninterval = \"500ms\"",
                "config:3: timer \"up\": field 'timers.drives' = \"uploads\" is invalid for this timer (accepted: a "
                    + "repeating \"runloop\" timer with an interval of at least 1s)"
            ),
            (
                "[[timers]]\nname = \"a\"\nmechanism = \"displaylink\"\ndrives = \"ripple\"\n"
                    + "[[timers]]\nname = \"b\"\nmechanism = \"displaylink\"\ndrives = \"ripple\"",
                "config:8: 2 timers have drives = \"ripple\" (accepted: at most 1; set drives = \"log\" on the others)"
            ),
            (
                "[[timers]]\nname = \"s\"\ndrives = \"samples\"",
                "config:3: timer \"s\" drives the upload pipeline's samples, but no timer has drives = \"uploads\""
            ),
            (
                "[countdown]\nseconds = 30",
                "config:2: field 'countdown.seconds' has moved: set countdown = N in each [[timers]] table with "
                    + "drives = \"countdown\""
            ),
            (
                "[[ticker]]\nfps = 30",
                "config:1: [[ticker]] is not a list of tables; only [[timers]] is"
            ),
        ])
    func invalidTimerIsNamed(text: String, message: String) {
        #expect(throws: ConfigError.self) { try Config.parse(text) }
        do {
            _ = try Config.parse(text)
        } catch {
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }

    @Test("A [[header]] must be written with its brackets together and a plain name")
    func arrayHeaderShape() {
        for text in ["[ [timers]]", "[[timers] ]", "[[]]", "[[timers]", "[[timers]]]"] {
            #expect(ConfigLines.problem(in: Array(text.unicodeScalars)) != nil, "\(text)")
        }
        #expect(ConfigLines.problem(in: Array("[[timers]] # mine".unicodeScalars)) == nil)
        #expect(ConfigLines.problem(in: Array("  [[ timers ]]".unicodeScalars)) == nil)
    }

    @Test("decision 13: the shipped config documents every [[timers]] field with its default and range")
    func shippedConfigDocumentsTimerFields() throws {
        let path = RepositoryFile.path("Resources/timerdeck.toml")
        let lines = try InputFile.read(path, role: "config file").split(separator: "\n")
        for field in TimerDefinition.fields {
            let name = field.key.dropFirst(field.section.count + 1)
            #expect(lines.contains { $0.hasPrefix("# \(name) = ") }, "\(field.key) is not in \(path)")
            if let range = field.range {
                #expect(lines.contains { $0.hasPrefix("#") && $0.contains(range) }, "the range of \(field.key)")
            }
        }
    }

    @Test("A file's [[timers]] are the dashboard's timers; a file without any keeps the standard scene's")
    func fileTimersAreTheScene() throws {
        let standard = try Config.parse("[log]\ncapacity = 50")
        #expect(standard.timers == TimerDefinition.standardScene && standard.hasUploads)
        let config = try Config.parse("[[timers]]\nname = \"tea\"\nmechanism = \"dispatch\"\nrepeats = false")
        #expect(!config.hasUploads)
        let state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let tea = try #require(state.rows.last)
        #expect(state.rows.map(\.name) == ["tea"])
        #expect(tea.mechanismText == "DispatchTimer 1s once" && tea.mode == nil && tea.startsAtLaunch)
    }

    @Test("S1/S2/S3: the standard scene's rows are [[timers]] like any other: an SMS button, the ripple, the jobs")
    func standardRowsAreDefinedTimers() throws {
        let state = DashboardState(
            scene: .standard(Config(), uploadsLabel: "dir (temporary)"), size: DashboardLayout.minimumSize)
        #expect(state.rows.map(\.name) == ["sms-default", "sms-common", "sms-gcd", "ticker", "sampler", "uploader"])
        #expect(state.buttonRows.map(\.name) == ["sms-default", "sms-common", "sms-gcd"])
        #expect(state.buttonRows.allSatisfy { $0.button?.seconds == 60 && !$0.startsAtLaunch })
        #expect(state.tickerRow?.mechanismText == "DisplayLink 60/1")
        #expect(state.jobRows.map(\.mechanismText) == ["RunLoop Timer 5s", "RunLoop Timer 5m"])
        // Without a pipeline (no sink), the job rows are left out rather than left without a driver.
        let bare = DashboardState(scene: .standard(Config(), uploadsLabel: nil), size: DashboardLayout.minimumSize)
        #expect(bare.jobRows.isEmpty && bare.rows.count == 4)
        // The settings the pipeline gets come from the job rows.
        var config = Config()
        config.timers[4].interval = .seconds(2)
        config.timers[5].mode = .default
        #expect(config.pipelineSettings.sampleInterval == .seconds(2))
        #expect(config.pipelineSettings.uploadMode == .default && config.pipelineSettings.sampleMode == .common)
    }
}
