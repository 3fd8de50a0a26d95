import RunLoopKit

/// The kept timers as `timerdeck status` prints them, read from the state file at wall-clock time
/// `wallNow`, with no dashboard running: each countdown's time left (or past its end), each
/// alarm's local time and time to it, each stopwatch's time run, held ones marked.
///
/// ```swift
/// let file = TimerFileText(text: "timerdeck-state 3\ncountdown\ttea\tpaused\t161\n")!
/// let status = TimerStatus(file.entries, countdowns: file.countdownLengths, wallNow: wallNow)
/// print(status.text(.tmux))   // "tea 02:41 ‖"
/// ```
package struct TimerStatus: Sendable {
    /// How `status` prints: `text` a line a timer, `tmux` one short line for a status bar, `waybar`
    /// its custom module's JSON, `json` every field.
    package enum Format: String, CaseIterable, Sendable {
        case text, tmux, waybar, json
    }

    /// One kept timer.
    package struct Item: Equatable, Sendable {
        package enum Kind: String, Sendable { case countdown, alarm, stopwatch }
        package var name: String
        package var kind: Kind
        package var isPaused: Bool
        /// A countdown's seconds left (negative past its end), an alarm's seconds until it rings, a
        /// stopwatch's seconds run (in milliseconds for the stopwatch's tenths).
        package var milliseconds: Int64
        /// A countdown's length in seconds, when it is known.
        package var length: Int?
        /// Whether a countdown counts on past its end (`false`: it ends there); `nil` when its
        /// length is not known.
        package var overtime: Bool?
        /// An alarm's local time, `12:30`.
        package var ringsAt: String?

        /// Whether a countdown is past its end and counts on.
        package var isOvertime: Bool { kind == .countdown && milliseconds < 0 && overtime != false }
        /// Whether a countdown without overtime has ended: the dashboard shows it at `Send` again.
        package var hasEnded: Bool { kind == .countdown && milliseconds <= 0 && overtime == false }

        /// The time as the dashboard shows it: `02:41`, `+01:05`, `12:03.4`, `12:30`.
        var clock: String {
            switch kind {
            case .countdown where hasEnded: return "ended"
            case .countdown:
                let seconds = milliseconds >= 0 ? (milliseconds + 999) / 1_000 : -milliseconds / 1_000
                return (milliseconds < 0 ? "+" : "") + ClockText.countdown(seconds: Int(seconds))
            case .alarm: return ringsAt ?? "--:--"
            case .stopwatch: return ClockText.stopwatch(.milliseconds(milliseconds))
            }
        }

        /// The line `text` prints: `tea: 02:41 left`, `tea: +01:05 past its end`, `lunch: rings at
        /// 12:30, in 2h05m`, `run: 12:03.4 run`, each `(paused)` when held.
        var sentence: String {
            let held = isPaused ? " (paused)" : ""
            switch kind {
            case .countdown where hasEnded: return "\(name): ended"
            case .countdown where isOvertime: return "\(name): \(clock) past its end\(held)"
            case .countdown: return "\(name): \(clock) left\(held)"
            case .alarm:
                let left = DurationText.abbreviations(.milliseconds(max(milliseconds, 0)))[0]
                return "\(name): rings at \(clock), in \(left)\(held)"
            case .stopwatch: return "\(name): \(clock) run\(held)"
            }
        }
    }

    package var items: [Item] = []

    /// The timers `entries` keep, at wall-clock time `wallNow`; `countdowns` gives the countdowns'
    /// lengths by name (and whether they count on past their end).
    package init(
        _ entries: [TimerFileText.Entry], countdowns: [String: TimerFileText.CountdownLength], wallNow: Instant
    ) {
        let length = { (name: String) in countdowns[name]?.seconds }
        let overtime = { (name: String) in countdowns[name]?.overtime }
        let millis = { (duration: Duration) in duration.nanoseconds / 1_000_000 }
        items = entries.map { entry in
            switch entry {
            case .countdown(let name, let endsAt):
                Item(
                    name: name, kind: .countdown, isPaused: false, milliseconds: millis(wallNow.duration(to: endsAt)),
                    length: length(name), overtime: overtime(name))
            case .pausedCountdown(let name, let remaining):
                Item(
                    name: name, kind: .countdown, isPaused: true, milliseconds: Int64(remaining) * 1_000,
                    length: length(name), overtime: overtime(name))
            case .alarm(let name, let deadline, let paused):
                Item(
                    name: name, kind: .alarm, isPaused: paused, milliseconds: millis(wallNow.duration(to: deadline)),
                    ringsAt: LocalDateTime(localTimeOf: deadline)?.time.text)
            case .stopwatch(let name, let startedAt, _):
                Item(
                    name: name, kind: .stopwatch, isPaused: false,
                    milliseconds: max(millis(startedAt.duration(to: wallNow)), 0))
            case .pausedStopwatch(let name, let elapsed, _):
                Item(name: name, kind: .stopwatch, isPaused: true, milliseconds: millis(elapsed))
            }
        }
    }

    /// What `status --format format` prints, without the final line end.
    package func text(_ format: Format) -> String {
        switch format {
        case .text: items.isEmpty ? "no timers running" : items.map(\.sentence).joined(separator: "\n")
        case .tmux: tmuxLine
        case .waybar: waybar
        case .json: json
        }
    }

    /// `tea 02:41 · run 12:03.4 · lunch 12:30`, held ones with `‖`; empty with none.
    private var tmuxLine: String {
        items.map { "\($0.name) \($0.clock)\($0.isPaused ? " ‖" : "")" }.joined(separator: " · ")
    }

    /// The most pressing state, waybar's `class`: `overtime`, `running`, `paused` or `idle`.
    package var stateClass: String {
        if items.contains(where: \.isOvertime) { return "overtime" }
        if items.contains(where: { !$0.isPaused && !$0.hasEnded }) { return "running" }
        return items.contains(where: \.isPaused) ? "paused" : "idle"
    }

    /// How far the first running countdown with a known length has gone, 0…100.
    package var percentage: Int? {
        guard
            let item = items.first(where: { $0.kind == .countdown && !$0.isPaused && !$0.hasEnded && $0.length != nil }
            ),
            let length = item.length, length > 0
        else { return nil }
        let done = Int64(length) * 1_000 - item.milliseconds
        return Int(min(max(done * 100 / (Int64(length) * 1_000), 0), 100))
    }

    /// Waybar's custom module: `{"text": …, "tooltip": …, "class": …, "percentage": …}`.
    private var waybar: String {
        let quoted = { (text: String) in text.quotedForJSONAndTOML }
        var fields = [
            "\"text\":\(quoted(tmuxLine))", "\"tooltip\":\(quoted(text(.text)))",
            "\"class\":\(quoted(stateClass))",
        ]
        if let percentage { fields.append("\"percentage\":\(percentage)") }
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// `{"timers":[{"name":"tea","kind":"countdown","paused":false,"ms":161000,…}]}`.
    private var json: String {
        let quoted = { (text: String) in text.quotedForJSONAndTOML }
        let timers = items.map { item in
            var fields = [
                "\"name\":\(quoted(item.name))", "\"kind\":\(quoted(item.kind.rawValue))",
                "\"paused\":\(item.isPaused)", "\"ms\":\(item.milliseconds)", "\"shown\":\(quoted(item.clock))",
            ]
            if let length = item.length { fields.append("\"length_s\":\(length)") }
            if let ringsAt = item.ringsAt { fields.append("\"rings_at\":\(quoted(ringsAt))") }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"class\":\(quoted(stateClass)),\"timers\":[" + timers.joined(separator: ",") + "]}"
    }
}
