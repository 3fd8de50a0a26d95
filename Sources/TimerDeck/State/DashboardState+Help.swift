import TerminalUI
import Uploads

extension DashboardState {
    /// The upload panel's title, naming where the batches go; `nil` without a pipeline.
    var uploadsTitle: String? {
        uploadsLabel.map { "Uploads (S2) → \($0)" }
    }

    /// What the status bar or a panel may have to cut, in full: the status bar's hint, the samples
    /// not saved, the pipeline's problem, the last failed upload, the samples the server refused and
    /// those the outbox's size cap dropped.
    var messages: [String] {
        var messages: [String] = []
        if let line = statusLine, CharacterWidth.of(line) > layout.hintWidth { messages.append("Status: \(line)") }
        guard let uploads else { return messages }
        if let unsaved = uploads.unsaved { messages.append(unsaved.summary) }
        if let problem = uploads.problem, problem != uploads.unsaved?.error.description { messages.append(problem) }
        if let error = uploads.lastAttempt?.error {
            let status = uploads.lastAttempt?.statusCode.map { " (HTTP \($0))" } ?? ""
            messages.append("Last upload failed\(status): \(error.description)")
        }
        if let refused = uploads.refused {
            // Batches refused for the credentials go again once a batch gets through with them.
            let until = refused.error.refusesCredentials ? "the server takes the credentials" : "the next start"
            messages.append(
                "\(refused.summary) this run, parked in the outbox until \(until): \(refused.error.description)")
        }
        if let dropped = uploads.counters?.droppedSummary { messages.append(dropped) }
        return messages
    }

    /// The help overlay's lines: the messages in full and where uploads go (a URL the panel's title
    /// cuts), wrapped to the overlay, then the keymap with the keys the config bound.
    var helpLines: [String] {
        let width = max(layout.help.width - 5, 1)
        let wrapped = { (texts: [String]) in texts.flatMap { TextFit.wrap($0, to: width).map { "  " + $0 } } }
        let messageLines = wrapped(messages)
        let uploadLines = wrapped(uploadsLabel.map { ["Uploads go to \($0)"] } ?? [])
        return (messageLines.isEmpty ? [] : ["Messages (in full)"] + messageLines + [""])
            + (uploadLines.isEmpty ? [] : ["Uploads"] + uploadLines + [""])
            + Keymap.help(keys)
    }
}
