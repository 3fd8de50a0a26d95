import ArgumentParser
import Glibc
import TimerDeck

import struct Foundation.Data
import class Foundation.JSONDecoder

/// `timerdeck manual-page`, hidden from the help and the completions: prints the manual page
/// (`man timerdeck`) in roff, as `install.sh` installs it. The options come from ArgumentParser's
/// own description of the command line (the JSON of `--experimental-dump-help`), everything else
/// from ``CommandHelp``, as `--help` has them.
struct ManualPageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manual-page", abstract: "Print the manual page (roff) on standard output.",
        shouldDisplay: false)

    func run() throws {
        print(try Self.page(date: Self.today()), terminator: "")
    }

    /// The manual page of ``TimerDeckCommand``, dated `date` (`YYYY-MM-DD`).
    static func page(date: String) throws -> String {
        let root = try JSONDecoder().decode(ToolInfo.self, from: Data(TimerDeckCommand._dumpHelp().utf8)).command
        let configuration = TimerDeckCommand.configuration
        // The shown options in the order of the help, then each titled group under its title.
        var groups = [ManualPage.Group(title: nil, items: [])]
        for argument in root.arguments ?? [] where argument.shouldDisplay {
            if let index = groups.firstIndex(where: { $0.title == argument.sectionTitle }) {
                groups[index].items.append(argument.item)
            } else {
                groups.append(ManualPage.Group(title: argument.sectionTitle, items: [argument.item]))
            }
        }
        let commands = (root.subcommands ?? []).filter { $0.shouldDisplay != false && $0.commandName != "help" }
            .map { command in
                ManualPage.Command(
                    name: command.commandName, abstract: command.abstract ?? "",
                    items: (command.arguments ?? []).filter { $0.shouldDisplay && !$0.isHelpOrVersion }.map(\.item))
            }
        return ManualPage(
            name: configuration.commandName ?? root.commandName, version: configuration.version,
            date: date, abstract: configuration.abstract, usage: configuration.usage ?? root.commandName,
            options: groups, commands: commands
        ).text
    }

    /// Today in UTC as `YYYY-MM-DD`, or the day of `SOURCE_DATE_EPOCH` when it is set, so that a
    /// packaged page can be made again the same.
    static func today() -> String {
        var seconds = time(nil)
        if let epoch = getenv("SOURCE_DATE_EPOCH").flatMap({ Int(String(cString: $0)) }) { seconds = time_t(epoch) }
        var day = tm()
        gmtime_r(&seconds, &day)
        let digits = [(Int(day.tm_year) + 1900, 4), (Int(day.tm_mon) + 1, 2), (Int(day.tm_mday), 2)].map {
            value, width in
            let text = String(value)
            return String(repeating: "0", count: max(width - text.count, 0)) + text
        }
        return digits.joined(separator: "-")
    }

    /// The part of `--experimental-dump-help`'s JSON (ArgumentParser's `ToolInfoV0`) the page uses.
    private struct ToolInfo: Decodable {
        var command: CommandInfo
    }

    private struct CommandInfo: Decodable {
        var commandName: String
        var abstract: String?
        var shouldDisplay: Bool?
        var subcommands: [CommandInfo]?
        var arguments: [ArgumentInfo]?
    }

    private struct ArgumentInfo: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }

        var kind: String
        var shouldDisplay: Bool
        var sectionTitle: String?
        var names: [Name]?
        var valueName: String?
        var defaultValue: String?
        var abstract: String?
        var discussion: String?

        /// Whether it is `--help` or `--version`, which ArgumentParser gives every subcommand too.
        var isHelpOrVersion: Bool {
            names?.contains { $0.name == "help" || $0.name == "version" } == true
        }

        /// As the page lists it: an argument by its value name, an option with its value, a flag
        /// alone; its abstract, discussion and default as one paragraph.
        var item: ManualPage.Item {
            let typed = (names ?? []).map { ($0.kind == "long" ? "--" : "-") + $0.name }
            let value = valueName ?? ""
            let defaultText = defaultValue.flatMap { $0.isEmpty || $0 == "false" ? nil : "(default: \($0))" }
            let text = [abstract, discussion, defaultText].compactMap { $0?.isEmpty == false ? $0 : nil }
                .joined(separator: " ")
            switch kind {
            case "positional": return ManualPage.Item(names: [value.uppercased()], value: nil, text: text)
            case "option": return ManualPage.Item(names: typed, value: value, text: text)
            default: return ManualPage.Item(names: typed, value: nil, text: text)
            }
        }
    }
}
