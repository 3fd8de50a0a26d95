import KeptTimers
import RunLoopKit
import TerminalUI
import TimeUnits

/// Shared formatting of panel content.
enum PanelText {
    /// "in 1.5s", "due", "never", "—".
    static func relative(_ instant: Instant?, now: Instant) -> String {
        relativeForms(instant, now: now)[0]
    }

    /// ``relative(_:now:)`` from the fullest form to the shortest: "in 23h59m59s", "in 24h".
    static func relativeForms(_ instant: Instant?, now: Instant) -> [String] {
        guard let instant else { return ["—"] }
        guard instant != .distantFuture else { return ["never"] }
        let remaining = now.duration(to: instant)
        guard remaining > .zero else { return ["due"] }
        return DurationText.abbreviations(remaining).map { "in " + $0 }
    }

    /// "default", "common", "any mode".
    static func mode(_ mode: RunLoop.Mode?) -> String {
        mode?.rawValue ?? "any mode"
    }

    static func style(for state: DisplayState) -> Style {
        switch state {
        case .running: Style(.good)
        case .suspended: Style(.warn)
        case .waitingForMode: Style(.warn, bold: true)
        case .invalid: Style(.bad)
        case .idle: Style(.dim)
        }
    }

    /// `text` cut or padded to exactly `width` cells (for columns of known short values).
    static func fit(_ text: String, _ width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let cells = CharacterWidth.of(character)
            guard used + cells <= width else { break }
            result.append(character)
            used += cells
        }
        return result + String(repeating: " ", count: max(width - used, 0))
    }

    /// `text` shortened at a word boundary with an ellipsis, then padded, to exactly `width` cells
    /// (for prose: errors, titles).
    static func fitWords(_ text: String, _ width: Int) -> String {
        fit(TextFit.truncate(text, to: width), width)
    }

    /// A time since the start for the fire log, always with its unit, in at most 8 cells:
    /// "1.000s", "999.999s", "1005.00s", "99999.9s", "1000000s".
    static func logTime(_ elapsed: Duration) -> String {
        let millis = max(elapsed.nanoseconds, 0) / Nanoseconds.perMillisecond
        let seconds = millis / 1_000
        let fraction = millis % 1_000
        func padded(_ value: Int64, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(digits - text.count, 0)) + text
        }
        if seconds < 1_000 { return "\(seconds).\(padded(fraction, 3))s" }
        if seconds < 10_000 { return "\(seconds).\(padded(fraction / 10, 2))s" }
        if seconds < 100_000 { return "\(seconds).\(fraction / 100)s" }
        return "\(seconds)s"
    }
}

extension Rect {
    /// This rectangle in the coordinates of `outer` (whose origin becomes 0,0).
    func relative(to outer: Rect) -> Rect {
        Rect(row: row - outer.row, column: column - outer.column, width: width, height: height)
    }
}
