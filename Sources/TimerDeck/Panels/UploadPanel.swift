import KeptTimers
import RunLoopKit
import TerminalUI
import Uploads

/// The upload pipeline (S2): the sink in use (in the title), its two timers, samples pending, the
/// last committed sample and upload, retries and backoff, samples that could not be saved, what this
/// process delivered or the last problem.
enum UploadPanel {
    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas, focused: Bool) {
        canvas.fill()
        let state = snapshot.state
        guard let title = state.uploadsTitle, let status = state.uploads else { return }
        canvas.box(title: title, style: Style(focused ? .accent : .dim))
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        let now = snapshot.loop.now
        var lines: [(String, Style)] = []
        for (index, job) in state.jobRows.enumerated() {
            let selected = focused && state.selected(.uploads) == index
            let display = snapshot.displayState(of: job)
            let next =
                display == .running || display == .waitingForMode
                ? PanelText.relative(snapshot.reading(of: job).nextFire, now: now) : display.description
            let text =
                "\(selected ? "▶" : " ") \(PanelText.fit(job.name, 8)) \(PanelText.fit(PanelText.mode(job.mode), 8)) \(next)"
            lines.append((text, selected ? Style(.normal, bold: true) : PanelText.style(for: display)))
        }
        // What is wrong comes first, so a short panel cuts the routine lines, not the bad news.
        if let unsaved = status.unsaved {
            lines.append((unsaved.summary, Style(.bad)))
        }
        if let problem = status.problem, problem != status.unsaved?.error.description {
            lines.append((problem, Style(.bad)))
        }
        if let refused = status.refused {
            let reason = refused.error.refusesOldSamples ? "too old for the database" : short(refused.error)
            lines.append(("\(refused.summary): \(reason)", Style(.bad)))
        }
        let counters = status.counters
        if let dropped = counters?.droppedSamples, dropped > 0 {
            // When they were taken is in the messages (`?`): the panel has room for the count.
            lines.append(("\(dropped) \(dropped == 1 ? "sample" : "samples") dropped: outbox full", Style(.bad)))
        }
        var samples = "pending \(counters?.pendingSamples ?? 0)"
        if let parked = counters?.parkedSamples, parked > 0 { samples += " (\(parked) parked)" }
        if let last = counters?.lastSample { samples += " · last #\(last.seq)" }
        if let taken = status.lastSampleTime { samples += " " + ago(taken, now: now) }
        lines.append((samples, .normal))
        lines.append(lastUpload(status, now: now))
        if status.problem == nil {
            var totals = "delivered \(status.deliveredThisRun) this run"
            if let rejected = counters?.rejectedBatches, rejected > 0 {
                totals += " · \(rejected) \(rejected == 1 ? "batch" : "batches") rejected"
            }
            lines.append((totals, .normal))
        }
        if lines.count > inner.height, inner.height > 0 {
            // More than fits: the last row says how many lines the panel has no room for.
            let hidden = lines.count - inner.height + 1
            lines = Array(lines.prefix(inner.height - 1)) + [("+\(hidden) more lines", Style(.dim))]
        }
        for (row, line) in lines.enumerated() {
            inner.put(PanelText.fitWords(line.0, inner.width), row: row, column: 0, style: line.1)
        }
    }

    /// "sent 60 · 200 · 12ms 1m ago", "HTTP 500 · retry #2 in 10s", "sending 60…".
    private static func lastUpload(_ status: UploadStatus, now: Instant) -> (String, Style) {
        if status.isDelivering { return ("sending…", Style(.accent)) }
        guard let attempt = status.lastAttempt else { return ("no upload yet", Style(.dim)) }
        guard let error = attempt.error else {
            let code = attempt.statusCode.map { " · \($0)" } ?? ""
            return (
                "sent \(attempt.sampleCount)\(code) · \(DurationText.format(attempt.roundTrip)) \(ago(attempt.time, now: now))",
                Style(.good)
            )
        }
        var text = short(error)
        if let retry = status.retryAt {
            text += " · retry #\(status.consecutiveFailures + 1) \(PanelText.relative(retry, now: now))"
        } else if !error.isRetryable {
            text += " · kept"
        }
        return (text, Style(.bad))
    }

    private static func short(_ error: UploadError) -> String {
        switch error {
        case .serverUnavailable(let status, _): "HTTP \(status)"
        case .rejected(let status, let message): "rejected: HTTP \(status)" + (message.isEmpty ? "" : " \(message)")
        case .timedOut(_, let after): "timed out after \(DurationText.format(after))"
        case .connectionFailed(_, let reason): "no connection: \(reason)"
        case .unconfirmed(_, _, let why): "unconfirmed: \(why)"
        default: error.description
        }
    }

    private static func ago(_ instant: Instant, now: Instant) -> String {
        let elapsed = instant.duration(to: now)
        return elapsed < .seconds(1) ? "just now" : DurationText.format(elapsed) + " ago"
    }
}
