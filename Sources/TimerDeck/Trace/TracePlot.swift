import KeptTimers

/// A trace drawn as an SVG timeline: one lane per timer with a mark per fire, a line back to its
/// scheduled time when it fired late, ×N when it stands for skipped ticks, a green mark where it
/// moved to another mode, simulated sleeps as dashed lines, nested (tracking) runs as shaded bands,
/// a time axis and a legend.
///
/// A fire is drawn late only when it is at least ``lateAfter`` past its scheduled time: on a real
/// clock every fire is a little late, and a few microseconds are not what a user looks for. The
/// title says the threshold; `timerdeck plot --late` sets it.
///
/// ```swift
/// let svg = try TracePlot(text: traceText, source: "run.jsonl", lateAfter: .milliseconds(5)).svg
/// ```
package struct TracePlot: Sendable {
    /// Drawing sizes, in SVG user units.
    static let width = 1_000.0
    static let left = 140.0
    static let right = 20.0
    static let top = 40.0
    static let laneHeight = 28.0
    static let bottom = 90.0
    /// The width of a character of the 12-unit monospace font (0.6 em), for labels that must not
    /// run into each other.
    static let characterWidth = 7.2

    let lines: [TraceLine]
    /// Timer names in the order of their first fire: one lane each, at most ``maximumLanes``.
    package let lanes: [String]
    /// How many of the trace's timers have no lane, beyond ``maximumLanes``.
    package let undrawnTimers: Int
    /// The most lanes a plot draws: at 28 units each, more would pass the 32,767-pixel side that
    /// cairo-based renderers (rsvg-convert among them) draw.
    package static let maximumLanes = 1_000
    /// The time the plot ends at (the last event, at least 1 ns).
    let span: Int64
    /// How late a fire must be to be drawn late.
    let lateAfter: Duration

    /// The threshold when none is given: a millisecond.
    package static let defaultLateAfter = Duration.milliseconds(1)

    /// Reads the trace `text` (from `source`, for messages); fires at least `lateAfter` past their
    /// scheduled time are drawn late.
    package init(text: String, source: String, lateAfter: Duration = defaultLateAfter) throws(TracePlotError) {
        try self.init(
            lines: text.split(separator: "\n", omittingEmptySubsequences: false), source: source, lateAfter: lateAfter)
    }

    /// Reads the trace's `lines` as they come (a file's, ``InputFile/lines(_:role:)``), from `source`.
    package init(lines text: some Sequence<some StringProtocol>, source: String, lateAfter: Duration = defaultLateAfter)
        throws(TracePlotError)
    {
        self.lateAfter = lateAfter
        lines = try TraceLine.parse(text, source: source)
        var lanes: [String] = []
        var seen: Set<String> = []
        for line in lines {
            if let timer = line.timer, seen.insert(timer).inserted { lanes.append(timer) }
        }
        self.lanes = Array(lanes.prefix(Self.maximumLanes))
        undrawnTimers = lanes.count - self.lanes.count
        span = max(lines.map(\.time).max() ?? 0, 1)
    }

    /// The x of time `nanoseconds`.
    func x(_ nanoseconds: Int64) -> Double {
        Self.left + Double(nanoseconds) / Double(span) * (Self.width - Self.left - Self.right)
    }

    /// The y of lane `index`'s centre.
    func y(lane index: Int) -> Double { Self.top + (Double(index) + 0.5) * Self.laneHeight }

    /// The SVG document.
    package var svg: String {
        let plotBottom = Self.top + Double(lanes.count) * Self.laneHeight
        let height = plotBottom + Self.bottom
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(Self.width))\" height=\"\(Int(height))\" "
                + "viewBox=\"0 0 \(Int(Self.width)) \(Int(height))\" font-family=\"monospace\" font-size=\"12\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"8\" y=\"20\" font-size=\"14\">timerdeck trace: "
                + (undrawnTimers > 0
                    ? "\(lanes.count + undrawnTimers) timers (\(lanes.count) drawn), "
                    : "\(lanes.count) timers, ")
                + "\(lines.filter(\.isFire).count) fires, \(lines.filter(isLate).count) late "
                + "(late: \(DurationText.setting(lateAfter)) or more behind schedule, plot --late)</text>",
        ]
        out += bands(bottom: plotBottom)
        out += sleeps(bottom: plotBottom)
        for (index, name) in lanes.enumerated() {
            out += lane(index, name: name)
        }
        out += axis(at: plotBottom)
        out += legend(at: plotBottom + 45)
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// Nested runs as shaded bands (a run still open at the end reaches the end).
    private func bands(bottom: Double) -> [String] {
        var out: [String] = []
        var open: [TraceLine] = []
        for line in lines {
            if line.event == "nested-run" { open.append(line) }
            if line.event == "nested-run-end", let start = open.popLast() {
                out.append(band(from: start.time, to: line.time, mode: start.mode ?? "", bottom: bottom))
            }
        }
        for start in open { out.append(band(from: start.time, to: span, mode: start.mode ?? "", bottom: bottom)) }
        return out
    }

    /// Simulated machine sleeps (G3) as dashed lines across every lane, with their length.
    private func sleeps(bottom: Double) -> [String] {
        lines.filter { $0.event == "sleep" }.flatMap { line -> [String] in
            let at = Self.number(x(line.time))
            return [
                "<line class=\"sleep\" data-t-ns=\"\(line.time)\" x1=\"\(at)\" y1=\"\(Self.number(Self.top - 6))\" "
                    + "x2=\"\(at)\" y2=\"\(Self.number(bottom))\" stroke=\"#7f3fbf\" stroke-dasharray=\"4 3\"/>",
                Self.label(
                    "slept \(DurationText.format(.nanoseconds(line.sleep ?? 0)))", at: x(line.time),
                    y: Self.top - 8, attributes: "class=\"sleep\" fill=\"#7f3fbf\""),
            ]
        }
    }

    private func band(from start: Int64, to end: Int64, mode: String, bottom: Double) -> String {
        "<rect class=\"band\" data-mode=\"\(Self.escaped(mode))\" x=\"\(Self.number(x(start)))\" y=\"\(Self.number(Self.top))\" "
            + "width=\"\(Self.number(x(end) - x(start)))\" height=\"\(Self.number(bottom - Self.top))\" "
            + "fill=\"#f6d58b\" fill-opacity=\"0.45\"/>"
    }

    private func lane(_ index: Int, name: String) -> [String] {
        let y = y(lane: index)
        var out = [
            "<g class=\"lane\" data-timer=\"\(Self.escaped(name))\">",
            "<text x=\"8\" y=\"\(Self.number(y + 4))\">\(Self.escaped(name))</text>",
            "<line x1=\"\(Self.number(Self.left))\" y1=\"\(Self.number(y))\" x2=\"\(Self.number(Self.width - Self.right))\" y2=\"\(Self.number(y))\" stroke=\"#ccc\"/>",
        ]
        // The right end of the last ×N label: a label that would run into it is left out (its
        // fire's tooltip still says it), so `×8` and `×2` never read `×82`.
        var labelsEnd = -Double.infinity
        for line in lines where line.isFire && line.timer == name {
            let late = isLate(line)
            let at = Self.number(x(line.time))
            if late {
                out.append(
                    "<line class=\"late\" x1=\"\(Self.number(x(line.time - (line.lateness ?? 0))))\" y1=\"\(Self.number(y))\" x2=\"\(at)\" "
                        + "y2=\"\(Self.number(y))\" stroke=\"#d62728\" stroke-width=\"3\"/>")
            }
            out.append(
                "<circle class=\"fire\" data-t-ns=\"\(line.time)\" cx=\"\(at)\" cy=\"\(Self.number(y))\" r=\"4\" "
                    + "fill=\"\(late ? "#d62728" : "#1f77b4")\"><title>\(Self.escaped(tooltip(line)))</title></circle>")
            if let ticks = line.ticks, ticks > 1, x(line.time) >= labelsEnd + Self.characterWidth / 2 {
                let label = "×\(ticks)"
                out.append(Self.label(label, at: x(line.time), y: y - 7, attributes: "class=\"ticks\""))
                labelsEnd = x(line.time) + Self.textWidth(label)
            }
        }
        for line in lines where line.event == "mode" && line.timer == name {
            let at = x(line.time)
            out.append(
                "<path class=\"move\" data-t-ns=\"\(line.time)\" d=\"M\(Self.number(at)) \(Self.number(y - 6)) "
                    + "l6 6 l-6 6 l-6 -6 z\" fill=\"#2ca02c\"/>")
            out.append(
                Self.label(line.mode ?? "", at: at + 8, y: y + 12, attributes: "class=\"move\" fill=\"#2ca02c\""))
        }
        out.append("</g>")
        return out
    }

    /// A fire's tooltip: its time, its ticks and how late it was.
    private func tooltip(_ line: TraceLine) -> String {
        let ticks = line.ticks ?? 1
        return "\(line.timer ?? "") at \(DurationText.format(.nanoseconds(line.time)))"
            + (ticks > 1 ? ", ×\(ticks) ticks" : "")
            + ((line.lateness ?? 0) > 0 ? ", \(DurationText.format(.nanoseconds(line.lateness ?? 0))) late" : "")
    }

    /// Whether `line` is a fire at least ``lateAfter`` (and more than nothing) past its scheduled time.
    private func isLate(_ line: TraceLine) -> Bool {
        let lateness = line.lateness ?? 0
        return line.isFire && lateness > 0 && lateness >= lateAfter.nanoseconds
    }

    /// The time axis, with a tick at round steps (1, 2 or 5 × a power of ten) and at most 10 labels.
    private func axis(at y: Double) -> [String] {
        var step: Int64 = 1
        while span / step > 10 { step = Self.nextStep(after: step) }
        var out = [
            "<g class=\"axis\">",
            "<line x1=\"\(Self.number(Self.left))\" y1=\"\(Self.number(y))\" x2=\"\(Self.number(Self.width - Self.right))\" y2=\"\(Self.number(y))\" stroke=\"black\"/>",
        ]
        var tick: Int64 = 0
        while tick <= span {
            let at = Self.number(x(tick))
            out.append(
                "<line x1=\"\(at)\" y1=\"\(Self.number(y))\" x2=\"\(at)\" y2=\"\(Self.number(y + 5))\" stroke=\"black\"/>"
            )
            // The origin reads 0 in any unit.
            let text = tick == 0 ? "0" : DurationText.format(.nanoseconds(tick))
            out.append(Self.label(text, at: x(tick), y: y + 18, centred: true))
            let (next, overflow) = tick.addingReportingOverflow(step)
            if overflow { break }
            tick = next
        }
        out.append("</g>")
        return out
    }

    private func legend(at y: Double) -> [String] {
        [
            "<g class=\"legend\">",
            "<circle cx=\"\(Self.number(Self.left))\" cy=\"\(Self.number(y))\" r=\"4\" fill=\"#1f77b4\"/>",
            "<text x=\"\(Self.number(Self.left + 10))\" y=\"\(Self.number(y + 4))\">fire on time</text>",
            "<line x1=\"\(Self.number(Self.left + 120))\" y1=\"\(Self.number(y))\" x2=\"\(Self.number(Self.left + 140))\" y2=\"\(Self.number(y))\" stroke=\"#d62728\" stroke-width=\"3\"/>",
            "<circle cx=\"\(Self.number(Self.left + 140))\" cy=\"\(Self.number(y))\" r=\"4\" fill=\"#d62728\"/>",
            "<text x=\"\(Self.number(Self.left + 150))\" y=\"\(Self.number(y + 4))\">late fire (line from its scheduled time; ×N: ticks)</text>",
            "<rect x=\"\(Self.number(Self.left + 530))\" y=\"\(Self.number(y - 7))\" width=\"20\" height=\"14\" fill=\"#f6d58b\" fill-opacity=\"0.45\"/>",
            "<text x=\"\(Self.number(Self.left + 556))\" y=\"\(Self.number(y + 4))\">nested run (tracking mode)</text>",
            "<path d=\"M\(Self.number(Self.left)) \(Self.number(y + 14)) l6 6 l-6 6 l-6 -6 z\" fill=\"#2ca02c\"/>",
            "<text x=\"\(Self.number(Self.left + 10))\" y=\"\(Self.number(y + 24))\">moved to another mode (m), named</text>",
            "<line x1=\"\(Self.number(Self.left + 290))\" y1=\"\(Self.number(y + 12))\" x2=\"\(Self.number(Self.left + 290))\" y2=\"\(Self.number(y + 26))\" stroke=\"#7f3fbf\" stroke-dasharray=\"4 3\"/>",
            "<text x=\"\(Self.number(Self.left + 300))\" y=\"\(Self.number(y + 24))\">simulated machine sleep (z, G3)</text>",
            "</g>",
        ]
    }

    /// The next round step after `step`: 1 → 2 → 5 → 10 → 20 …
    private static func nextStep(after step: Int64) -> Int64 {
        var decade: Int64 = 1
        while decade <= step / 10 { decade *= 10 }
        switch step / decade {
        case 1: return decade * 2
        case 2: return decade * 5
        default: return decade * 10
        }
    }

    /// The width `text` takes in the plot's font.
    static func textWidth(_ text: String) -> Double { Double(text.count) * characterWidth }

    /// A `<text>` element of `text` starting at `x` (centred on it with `centred`), moved left as far
    /// as it takes to end inside the image: a label at the right edge is read whole, not clipped.
    static func label(_ text: String, at x: Double, y: Double, centred: Bool = false, attributes: String = "")
        -> String
    {
        let extent = centred ? textWidth(text) / 2 : textWidth(text)
        let at = min(x, width - 2 - extent)
        return "<text" + (attributes.isEmpty ? "" : " \(attributes)")
            + " x=\"\(number(at))\" y=\"\(number(y))\"\(centred ? " text-anchor=\"middle\"" : "")>"
            + "\(escaped(text))</text>"
    }

    /// A coordinate with at most two decimals.
    static func number(_ value: Double) -> String {
        let hundredths = (value * 100).rounded()
        let whole = Int64(hundredths) / 100
        let fraction = abs(Int64(hundredths) % 100)
        return fraction == 0 ? String(whole) : String(whole) + "." + (fraction < 10 ? "0" : "") + String(fraction)
    }

    /// `text` safe inside SVG text and attributes.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
