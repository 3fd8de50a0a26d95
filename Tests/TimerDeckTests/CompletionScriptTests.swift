import ArgumentParser
import TerminalUI
import Testing

@testable import timerdeck

/// The completion scripts `install.sh` installs (`timerdeck --generate-completion-script SHELL`).
@Suite("The bash, zsh and fish completions")
struct CompletionScriptTests {
    /// The lines of `script`.
    static func lines(_ script: String) -> [Substring] {
        script.split(separator: "\n")
    }

    @Test("--color completes auto, always and never, in every shell", arguments: ["bash", "zsh", "fish"])
    func colorValues(shell: String) throws {
        let script = TimerDeckCommand.completionScript(for: try #require(CompletionShell(rawValue: shell)))
        let values = ColorChoice.allCases.map(\.rawValue)
        #expect(values == ["auto", "always", "never"])
        let lines = Self.lines(script)
        switch shell {
        case "bash":
            // `'--color')` in the option values' case, the values on the next line.
            let option = try #require(lines.firstIndex { $0.drop { $0 == " " } == "'--color')" })
            let offered = "-W " + values.map { "'\($0)'" }.joined(separator: "$'\\n'")
            #expect(lines[option + 1].contains(offered), "bash offers: \(lines[option + 1])")
        case "zsh":
            #expect(script.contains("___color=(" + values.map { "'\($0)'" }.joined(separator: " ") + ")"))
            #expect(lines.contains { $0.contains("'--color[") && $0.contains("${___color[@]}") })
        default:
            let option = try #require(lines.first { $0.hasPrefix("complete ") && $0.contains("-l 'color'") })
            #expect(option.contains("-rfka '\(values.joined(separator: " "))'"), "fish offers: \(option)")
        }
        #expect(!script.contains("manual-page"), "the hidden manual-page command is offered")
    }
}
