/// `man timerdeck`: the manual page in roff's man macros, with a section for each part of what
/// `timerdeck --help` tells: the options as the command line parser describes them (given to it as
/// ``Group``s and ``Command``s), and ``CommandHelp``'s keys, config, trace fields, files,
/// environment, exit statuses and examples, from the same tables, so the two never disagree.
///
/// Options and literal text are bold, values, placeholders and paths italic, every dash of an
/// option is a minus (`\-`); the page turns hyphenation off and sets its text ragged right, so no
/// path, option or field name is broken across lines.
///
/// ```swift
/// let page = ManualPage(
///     name: "timerdeck", version: "timerdeck 0.1.0", date: "2025-12-01", abstract: "A dashboard.",
///     usage: "timerdeck [--config FILE]", options: [groups], commands: [plot])
/// print(page.text, terminator: "")
/// ```
package struct ManualPage {
    /// An option, a flag or an argument, as the page lists it.
    package struct Item: Sendable {
        /// How it is typed (`-h`, `--help`); for an argument, its value name (`TRACE`).
        package var names: [String]
        /// The value an option takes (`FILE`); `nil` for a flag or an argument.
        package var value: String?
        /// What it does, in the help's words.
        package var text: String

        package init(names: [String], value: String?, text: String) {
            self.names = names
            self.value = value
            self.text = text
        }
    }

    /// Options under a title of their own (`Upload credentials`), or under none.
    package struct Group: Sendable {
        /// The help's title for them, `nil` for the command's own options.
        package var title: String?
        package var items: [Item]

        package init(title: String?, items: [Item]) {
            self.title = title
            self.items = items
        }
    }

    /// A subcommand: its name, what it does, and its arguments and options.
    package struct Command: Sendable {
        package var name: String
        package var abstract: String
        package var items: [Item]

        package init(name: String, abstract: String, items: [Item]) {
            self.name = name
            self.abstract = abstract
            self.items = items
        }
    }

    /// The sections, in the page's order.
    package static let sections = [
        "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "KEYS", "CONFIGURATION", "TRACE FILE", "FILES",
        "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO",
    ]

    /// The pages SEE ALSO names: the shell that runs the hooks, the notifier, the terminal database.
    static let related = [("sh", 1), ("notify-send", 1), ("terminfo", 5)]

    /// The command, `timerdeck`.
    package var name: String
    /// The version, as `--version` prints it.
    package var version: String
    /// The page's date, `YYYY-MM-DD`.
    package var date: String
    /// What the command is, in one sentence.
    package var abstract: String
    /// The usage: a command line per line, its continuation lines indented.
    package var usage: String
    /// The command's options, the untitled group first.
    package var options: [Group]
    /// The subcommands a user types (`plot`).
    package var commands: [Command]

    package init(
        name: String, version: String, date: String, abstract: String, usage: String, options: [Group],
        commands: [Command]
    ) {
        self.name = name
        self.version = version
        self.date = date
        self.abstract = abstract
        self.usage = usage
        self.options = options
        self.commands = commands
    }

    /// The page, in roff.
    package var text: String {
        var page = Roff()
        page.request("TH", name.uppercased(), "1", date, version, "General Commands Manual")
        // groff's man macros turn hyphenation back on after a synopsis or an example, to HY's
        // level: HY 0 keeps it off.
        page.request("nr", "HY", "0")
        page.request("nh")
        page.request("ad", "l")

        page.request("SH", "NAME")
        let summary = abstract.hasSuffix(".") ? String(abstract.dropLast()) : abstract
        page.text(Self.escaped(name) + " \\- " + Self.roff(summary.prefix(1).lowercased() + summary.dropFirst()))

        page.request("SH", "SYNOPSIS")
        synopsis(into: &page)

        page.request("SH", "DESCRIPTION")
        page.text(Self.roff(abstract))
        page.request("PP")
        page.text(Self.roff(CommandHelp.overview))

        page.request("SH", "OPTIONS")
        for group in options {
            if let title = group.title { page.request("SS", title) }
            for item in group.items { page.tagged(Self.tag(item), Self.roff(item.text)) }
        }

        page.request("SH", "COMMANDS")
        for command in commands {
            page.request("SS", command.name)
            page.text(Self.roff(command.abstract))
            for item in command.items { page.tagged(Self.tag(item), Self.roff(item.text)) }
        }

        page.request("SH", "KEYS")
        for entry in KeyGuide.entries {
            let actions = entry.actions.map { "`\($0.rawValue)`" }.joined(separator: ", ")
            let moved =
                entry.actions.isEmpty ? "" : " (`[keys]` \(entry.actions.count == 1 ? "action" : "actions") \(actions))"
            page.tagged(Self.keys(entry.keys), Self.roff(entry.detail + moved))
        }

        page.request("SH", "CONFIGURATION")
        page.text(Self.roff(CommandHelp.configIntro))
        for (section, fields) in CommandHelp.configSections {
            // A [keys] action is followed by its default key: `start-stop` (s).
            let names = fields.map { field in
                let name = field.prefix { $0 != " " }
                return "`\(name)`" + field.dropFirst(name.count)
            }
            page.tagged(Self.bold(section), Self.roff(names.joined(separator: ", ")))
        }

        page.request("SH", "TRACE FILE")
        page.text(Self.roff(CommandHelp.traceIntro))
        for field in TraceFile.fields {
            page.tagged(Self.bold(field.name), Self.roff("(\(field.events)) \(field.meaning)"))
        }

        // An entry that names several variables lists each on a line of its own.
        page.request("SH", "FILES")
        for entry in CommandHelp.files where entry.place != .environment {
            page.tagged(entry.name.split(separator: ", ").map(Self.roff), Self.roff(entry.meaning))
        }
        page.request("SH", "ENVIRONMENT")
        for entry in CommandHelp.files where entry.place == .environment {
            page.tagged(entry.name.split(separator: ", ").map(Self.roff), Self.roff(entry.meaning))
        }

        page.request("SH", "EXIT STATUS")
        for exit in CommandHelp.exitStatuses { page.tagged(Self.bold(exit.status), Self.roff(exit.meaning)) }

        page.request("SH", "EXAMPLES")
        for (index, example) in CommandHelp.examples.enumerated() {
            if index > 0 { page.request("PP") }
            page.text(Self.roff(example.meaning))
            page.request("RS", "4")
            page.request("EX")
            for command in example.commands { page.literal(Self.literal(command)) }
            page.request("EE")
            page.request("RE")
        }

        page.request("SH", "SEE ALSO")
        page.text(Self.related.map { "\(Self.bold($0.0))(\($0.1))" }.joined(separator: ", "))
        return page.lines.joined(separator: "\n") + "\n"
    }

    /// The usage's command lines as synopsis blocks (`.SY`): `[--config FILE]` as an optional
    /// option (`.OP`), other words as options, values and subcommands.
    private func synopsis(into page: inout Roff) {
        var commandLines: [[Substring]] = []
        for line in usage.split(separator: "\n") {
            let words = line.split(separator: " ")
            if line.first == " " && !commandLines.isEmpty {
                commandLines[commandLines.count - 1] += words
            } else if !words.isEmpty {
                commandLines.append(words)
            }
        }
        for words in commandLines {
            page.request("SY", String(words[0]))
            var run: [String] = []
            var group: [Substring]?
            for word in words.dropFirst() {
                if group == nil && word.hasPrefix("[") { group = [] }
                guard var inner = group else {
                    run.append(Self.synopsisWord(word))
                    continue
                }
                inner.append(word)
                group = inner
                guard word.hasSuffix("]") else { continue }
                if !run.isEmpty { page.text(run.joined(separator: " ")) }
                run = []
                let parts = inner.joined(separator: " ").dropFirst().dropLast().split(separator: " ")
                if parts.count <= 2, parts.first?.hasPrefix("-") == true, !parts.contains("|") {
                    page.request("OP", parts.map { Self.literal(String($0)) })
                } else {
                    page.text("[" + parts.map(Self.synopsisWord).joined(separator: " ") + "]")
                }
                group = nil
            }
            if !run.isEmpty { page.text(run.joined(separator: " ")) }
            page.request("YS")
        }
    }

    /// A word of the usage: an option or a subcommand bold, a placeholder (`FILE`) italic.
    private static func synopsisWord(_ word: Substring) -> String {
        if word == "|" { return "|" }
        if word.allSatisfy({ $0.isUppercase || $0 == "-" || $0 == "_" }) { return italic(word) }
        return bold(word)
    }

    /// An option's names in bold, then its value in italics: `--config FILE`.
    private static func tag(_ item: Item) -> String {
        item.names.map(bold).joined(separator: ", ") + (item.value.map { " " + italic($0) } ?? "")
    }

    /// The keys of a key guide entry in bold, between their separators: `Tab / Shift-Tab`.
    private static func keys(_ keys: String) -> String {
        keys.split(separator: " ").map { key in
            if key == "/" || key.hasSuffix(":") { return escaped(key) }
            if key.hasSuffix(",") { return bold(key.dropLast()) + "," }
            return bold(key)
        }
        .joined(separator: " ")
    }

    /// Help text in roff: each `code` span by ``code(_:)``, the prose between them with its
    /// `--options` in bold.
    static func roff(_ text: some StringProtocol) -> String {
        String(text).split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, part in
            index.isMultiple(of: 2) ? prose(part) : code(part)
        }
        .joined()
    }

    /// Prose: an `--option` in bold between its punctuation (`(--outbox`, `--fresh),`), the rest as it is.
    private static func prose(_ text: Substring) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            let start = word.firstIndex { $0 != "(" && $0 != "[" } ?? word.endIndex
            let end = word[start...].lastIndex { !",.;:)]".contains($0) }.map { word.index(after: $0) } ?? start
            let core = word[start..<end]
            guard core.hasPrefix("--") && core.count > 2 else { return escaped(word) }
            return escaped(word[..<start]) + bold(core) + escaped(word[end...])
        }
        .joined(separator: " ")
    }

    /// A code span: a path italic; a command line's options bold and placeholders italic; anything
    /// else bold, as typed.
    private static func code(_ text: Substring) -> String {
        if !text.contains(" ") && (text.contains("/") || text.hasPrefix("$") || text.hasPrefix("~")) {
            return italic(text)
        }
        guard text.hasPrefix("-") else { return bold(text) }
        return text.split(separator: " ").map { word in
            word.hasPrefix("-") || !word.allSatisfy(\.isUppercase) ? bold(word) : italic(word)
        }
        .joined(separator: " ")
    }

    static func bold(_ text: some StringProtocol) -> String { "\\fB" + literal(text) + "\\fR" }

    static func italic(_ text: some StringProtocol) -> String { "\\fI" + literal(text) + "\\fR" }

    /// Text typed as it is: every dash a minus, which is never a place to break a line.
    static func literal(_ text: some StringProtocol) -> String {
        escaped(text).replacing("-", with: "\\-")
    }

    /// `text` with its backslashes escaped, in ASCII as the help spells it (``CommandHelp/ascii(_:)``),
    /// any other character as its Unicode escape.
    static func escaped(_ text: some StringProtocol) -> String {
        CommandHelp.ascii(String(text)).unicodeScalars.map { scalar in
            if scalar == "\\" { return "\\e" }
            if scalar.isASCII { return String(scalar) }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\[u" + String(repeating: "0", count: max(4 - hex.count, 0)) + hex + "]"
        }
        .joined()
    }
}

/// Lines of roff, written a request or a paragraph at a time.
private struct Roff {
    /// The longest text line written (`mandoc -T lint` asks for at most 80).
    static let width = 78

    private(set) var lines: [String] = []

    /// A request line, `.SH "EXIT STATUS"`: each argument with a space in it quoted.
    mutating func request(_ name: String, _ arguments: String...) {
        request(name, arguments)
    }

    mutating func request(_ name: String, _ arguments: [String]) {
        let quoted = arguments.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 }
        lines.append((["." + name] + quoted).joined(separator: " "))
    }

    /// Roff text, filled by the formatter: written in lines of at most ``width`` characters.
    mutating func text(_ roff: String) {
        var line = ""
        for word in roff.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > Self.width {
                literal(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { literal(line) }
    }

    /// A tagged paragraph (`.TP`): `tag` on its line, `body` below it.
    mutating func tagged(_ tag: String, _ body: String) {
        tagged([tag], body)
    }

    /// A paragraph with several tags, each on a line of its own (`.TQ`), then `body`.
    mutating func tagged(_ tags: [String], _ body: String) {
        for (index, tag) in tags.enumerated() {
            request(index == 0 ? "TP" : "TQ")
            literal(tag + (index < tags.count - 1 ? "," : ""))
        }
        text(body)
    }

    /// One line as it is, guarded so it is never read as a request.
    mutating func literal(_ line: String) {
        lines.append(line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line)
    }
}
