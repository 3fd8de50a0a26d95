import TerminalUI

/// What `timerdeck --help` and its manual page (`man timerdeck`, ``ManualPage``) tell a user of
/// the installed binary, who has no repository beside it: the keys, the config's sections and
/// fields, files and environment, the trace's fields, the exit statuses and examples. The keys and
/// the trace fields come from the tables the app and `Docs/Manual.md` use (``KeyGuide``,
/// ``TraceFile/fields``), the config's fields from the config's own tables. The help writes them as
/// indented text below the options; the manual page gives each its own section.
///
/// The help's text is plain ASCII, in lines of at most ``width`` columns (an 80-column terminal
/// with the help's indentation beside them) without blank lines; headings are indented by one
/// column and what they head by three.
///
/// ```swift
/// CommandConfiguration(commandName: "timerdeck", discussion: CommandHelp.discussion)
/// ```
package enum CommandHelp {
    /// The longest line.
    package static let width = 73
    /// The indentation of a section's lines.
    static let body = "   "

    /// The command's discussion: everything below the overview.
    package static var discussion: String {
        let sections = [
            ("KEYS", keysText), ("CONFIG (--config FILE)", configText), ("FILES AND ENVIRONMENT", filesText),
            ("TRACE (--trace FILE)", traceText), ("EXIT STATUS", exitText), ("EXAMPLES", examplesText),
        ]
        return ([paragraph(overview)] + sections.map { " \($0)\n\($1)" }).joined(separator: "\n")
    }

    /// What the dashboard is for, in a few words, after the command's abstract.
    static let overview =
        "Scroll the fire log to put the run loop into the tracking mode and watch default-mode timers "
        + "pause. The dashboard's own help (?) lists the keys too."

    /// The overlay's key lines, in ASCII.
    static var keysText: String {
        let column = KeyGuide.keyColumn - 1
        return KeyGuide.entries.map { entry in
            let keys = ascii(entry.keys)
            return body + keys + String(repeating: " ", count: max(column - keys.count, 1)) + ascii(entry.summary)
        }.joined(separator: "\n")
    }

    /// What a config file is, before its sections.
    static let configIntro =
        "A TOML file of these sections and fields, every one optional. timerdeck --print-config prints the "
        + "default config, which documents each field with its default and accepted range: "
        + "timerdeck --print-config > my.toml is a config to start from. Durations are written 250ms, 3s, "
        + "5m or 2h. Each [[timers]] table is one row of the dashboard (a config with its own gets only "
        + "its own); [keys] moves an action to another key, action = \"K\"."

    /// The config's sections (`[uploads]`) and the names of their fields; `[keys]`'s are its actions,
    /// each with its default key: `start-stop (s)`.
    static var configSections: [(name: String, fields: [String])] {
        var sections: [(name: String, fields: [String])] = []
        for field in Config.fields {
            let section = "[\(field.section)]"
            let name = String(field.key.dropFirst(field.section.count + 1))
            if sections.last?.name == section {
                sections[sections.count - 1].fields.append(name)
            } else {
                sections.append((section, [name]))
            }
        }
        sections.append(("[[timers]]", TimerDefinition.fields.map { String($0.key.dropFirst("timers.".count)) }))
        sections.append(
            ("[keys]", KeyAction.allCases.map { "\($0.rawValue) (\(KeyAction.name(of: $0.defaultKey)))" }))
        return sections
    }

    /// The config's sections and their fields, by name.
    static var configText: String {
        let intro = paragraph(configIntro, indent: body.count)
        let column = body.count + 13
        let lines = configSections.flatMap { section, names in
            hanging(
                body + section + String(repeating: " ", count: max(column - body.count - section.count, 1)),
                names.joined(separator: ", "), indent: column)
        }
        return ([intro] + lines).joined(separator: "\n")
    }

    /// The config table of `Docs/Manual.md`: every field with what it accepts, as the error
    /// messages say it.
    package static var configMarkdownTable: String {
        let fields =
            Config.fields.map { ($0.key, $0.accepted) } + TimerDefinition.fields.map { ($0.key, $0.accepted) }
            + [("keys.ACTION", "one character, e.g. \"Q\", or \"space\" (the actions: [Keys](#keys))")]
        let rows = fields.map { key, accepted in "| `\(key)` | \(accepted.replacing("|", with: "\\|")) |" }
        return (["| field | accepts |", "|---|---|"] + rows).joined(separator: "\n")
    }

    /// What an entry of ``files`` names: a file or directory, environment variables, or a program.
    enum Place {
        case file, environment, program
    }

    /// Where timerdeck reads and writes, and what it reads from the environment: a name (a file,
    /// variables, a program) and what it is, in the help's words (``ascii(_:)`` drops the code quotes).
    static let files: [(name: String, meaning: String, place: Place)] = [
        (
            "`$XDG_STATE_HOME/timerdeck/outbox.sqlite`",
            "the outbox every sample is committed to before it counts (by default "
                + "`~/.local/state/timerdeck/outbox.sqlite`; `--outbox PATH` moves it; a headless run without "
                + "`--outbox` uses a temporary one, removed at exit); `outbox.sqlite.lock` beside it lets one "
                + "timerdeck at a time write it",
            .file
        ),
        (
            "`$XDG_STATE_HOME/timerdeck/uploads/`",
            "where each batch goes as a JSON file without `--upload-url` (a headless run with `--outbox`: "
                + "`uploads/` next to the outbox)",
            .file
        ),
        (
            "`$XDG_STATE_HOME/timerdeck/timers.state`",
            "the running and paused countdowns, alarms and stopwatches, kept across a quit, `kill -9` or a "
                + "reboot (`--state PATH` moves it, `--fresh` starts without them and sets the file aside as "
                + "`timers.state.before-fresh`; a headless run keeps them only with `--state`); written to a temporary "
                + "file beside it and renamed over it; a corrupt one is kept aside as `timers.state.corrupt`, one from "
                + "a newer timerdeck as `timers.state.newer`; `timers.state.lock` beside it holds the running "
                + "dashboard's PID, so a second one on the file is refused",
            .file
        ),
        (
            "`PREFIX/libexec/timerdeck/timerdeck`",
            "the dashboard, as `./install.sh PREFIX` installs it: `PREFIX/bin/timerdeck` answers `status` "
                + "from the timers file itself and runs this program in its place for everything else",
            .file
        ),
        (
            "`$XDG_STATE_HOME/timerdeck/timers.history`",
            "every finished countdown, alarm and stopwatch session, a line each, beside the timers file (kept "
                + "when it is); `timerdeck history` prints them; at most 1 MB, past that its older half goes",
            .file
        ),
        (
            "`TIMERDECK_TIMER`, `TIMERDECK_MECHANISM`, `TIMERDECK_MODE`, `TIMERDECK_SCHEDULED_NS`, "
                + "`TIMERDECK_FIRED_NS`, `TIMERDECK_LATENESS_NS`, `TIMERDECK_TICKS`",
            "the environment of a timer's hook (`/bin/sh -c`), times in nanoseconds since the dashboard "
                + "started, as the trace's `t_ns`",
            .environment
        ),
        ("`TERM`", "the terminal; one that cannot move the cursor or show reverse video is refused", .environment),
        (
            "`NO_COLOR`",
            "when set and not empty, no colour (bold, dim, underline and reverse tell the states apart); "
                + "`--color always` colours anyway",
            .environment
        ),
        (
            "`TIMERDECK_ANIMATIONS`",
            "`none` keeps the screen still (no ripple frames, no flashes), `basic` runs the ripple at 10 frames "
                + "a second at most, `full` (the default) everything; it wins over `[terminal] animations`",
            .environment
        ),
        (
            "`TZ`",
            "the local time zone of an alarm and of a `first_fire` time or date, summer time included (or "
                + "`/etc/localtime`)",
            .environment
        ),
        ("`notify-send`", "shows `notify = true`'s desktop notifications, when installed", .program),
        (
            "`pw-play`, `paplay`, `aplay`", "play `sound = true`'s beep, the first of them installed (none: no sound)",
            .program
        ),
    ]

    /// The files and the environment, for the help.
    static var filesText: String {
        files.flatMap {
            hanging(body, $0.name, indent: body.count) + hanging(body + "    ", $0.meaning, indent: body.count + 4)
        }
        .joined(separator: "\n")
    }

    /// The files table of `Docs/Manual.md`.
    package static var filesMarkdownTable: String {
        (["| what | is |", "|---|---|"] + files.map { "| \($0.name) | \($0.meaning) |" }).joined(separator: "\n")
    }

    /// What a trace file is, before its fields.
    static let traceIntro =
        "One JSON object per line: every fire, nested run, move to another mode, simulated sleep and, while "
        + "the phases page shows, every wake-up. timerdeck plot TRACE --out FILE draws it as an SVG."

    /// The trace's fields.
    static var traceText: String {
        let intro = paragraph(traceIntro, indent: body.count)
        let column = body.count + 13
        let lines = TraceFile.fields.flatMap { field in
            hanging(
                body + field.name + String(repeating: " ", count: max(column - body.count - field.name.count, 1)),
                "(\(field.events)) " + field.meaning, indent: column)
        }
        return ([intro] + lines).joined(separator: "\n")
    }

    /// The exit statuses and when timerdeck exits with each.
    static let exitStatuses: [(status: String, meaning: String)] = [
        ("0", "the dashboard quit, or a headless script ended"),
        (
            "1",
            "a sample could not be committed to the outbox, or the outbox failed while running (it says how "
                + "many samples and why), or `plot` could not finish writing its SVG, or the installed "
                + "`timerdeck` could not find or start the dashboard (`libexec/timerdeck/timerdeck`)"
        ),
        (
            "2",
            "bad input: the command line, the config, the script, a file to write, a terminal that cannot show "
                + "the dashboard, too few file descriptors, or an outbox that cannot be opened; nothing was written"
        ),
    ]

    /// The exit statuses, for the help.
    static var exitText: String {
        exitStatuses.flatMap { hanging(body + "\($0.status)  ", $0.meaning, indent: body.count + 3) }
            .joined(separator: "\n")
    }

    /// The exit-status table of `Docs/Manual.md`.
    package static var exitMarkdownTable: String {
        (["| status | when |", "|---|---|"] + exitStatuses.map { "| \($0.status) | \($0.meaning) |" })
            .joined(separator: "\n")
    }

    /// Command lines to start from: what they do, and the commands, typed as they are.
    static let examples: [(meaning: String, commands: [String])] = [
        ("Run the dashboard; ? shows every key and q quits.", ["timerdeck"]),
        (
            "Start a config of your own from the default one, which documents every field, and run with it.",
            ["timerdeck --print-config > my.toml", "timerdeck --config my.toml"]
        ),
        (
            "Write every fire to a trace, then draw it as an SVG timeline.",
            ["timerdeck --trace run.jsonl", "timerdeck plot run.jsonl --out run.svg"]
        ),
        (
            "Without a terminal, on a virtual clock: five seconds of the dashboard, then its screen.",
            [
                "printf 'size 80x24\\nwait 5s\\nsnapshot\\nquit\\n' > demo.script",
                "timerdeck --headless --script demo.script",
            ]
        ),
        ("One line per event on standard output, for a screen reader.", ["timerdeck --plain"]),
        (
            "The kept timers in tmux's status bar, without a dashboard running.",
            ["tmux set -g status-right '#(timerdeck status --format tmux)'"]
        ),
    ]

    /// The examples, for the help.
    static var examplesText: String {
        examples.flatMap { example in
            hanging(body, example.meaning, indent: body.count) + example.commands.map { body + "    " + $0 }
        }
        .joined(separator: "\n")
    }

    /// `text` wrapped to ``width``, in ASCII, each line indented by `indent`.
    static func paragraph(_ text: String, indent: Int = 0) -> String {
        TextFit.wrap(ascii(text), to: width - indent).map { String(repeating: " ", count: indent) + $0 }
            .joined(separator: "\n")
    }

    /// `head` followed by `text` wrapped to ``width``, its further lines indented by `indent`.
    static func hanging(_ head: String, _ text: String, indent: Int) -> [String] {
        let lines = TextFit.wrap(ascii(text), to: width - max(head.count, indent))
        return lines.enumerated().map { index, line in
            (index == 0 ? head : String(repeating: " ", count: indent)) + line
        }
    }

    /// `text` in ASCII: code quotes dropped, arrows, signs and fractions spelled out.
    static func ascii(_ text: String) -> String {
        let spelled: [Character: String] = [
            "`": "", "→": "->", "×": "x", "¼": "1/4", "⅒": "1/10", "−": "-", "—": "-", "–": "-", "…": "...",
            "↑": "Up", "↓": "Down",
        ]
        return text.map { spelled[$0] ?? String($0) }.joined()
    }
}
