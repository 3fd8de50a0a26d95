import TerminalUI
import Uploads

extension DashboardState {
    /// What a panel may have to cut, in full: the samples not saved and the pipeline's problem.
    var messages: [String] {
        guard let uploads else { return [] }
        var messages = uploads.unsaved.map { [$0.summary] } ?? []
        if let problem = uploads.problem, problem != uploads.unsaved?.error.description { messages.append(problem) }
        return messages
    }

    /// The help overlay's lines: the messages in full, wrapped to the overlay, the keys the config
    /// moved, then the keymap.
    var helpLines: [String] {
        let width = max(layout.help.width - 5, 1)
        let messageLines = messages.flatMap { TextFit.wrap($0, to: width).map { "  " + $0 } }
        let bound = keys.helpLines
        return (messageLines.isEmpty ? [] : ["Messages (in full)"] + messageLines + [""])
            + (bound.isEmpty ? [] : ["Bound in the config's [keys] (they replace the keys below)"] + bound + [""])
            + Keymap.help
    }
}
