import RunLoopKit
import TerminalUI

/// The run loop's phases (`3`): the phase it is in, then per second of its clock the passes, the
/// executor jobs they ran and the most one pass ran (C-X1), why each sleep ended (the columns add
/// up to the sleeps), the share of time asleep and the nesting depth (C-R1, C-M11), and the modes
/// with the custom one (C-M5).
enum PhasesPanel {
    /// The phases of a pass in order, with the activity that starts each; "asleep" lies between
    /// before- and after-waiting.
    private static let cycle: [(String, RunLoop.Activity?)] = [
        ("entry", .entry), ("before timers", .beforeTimers), ("before sources", .beforeSources),
        ("before waiting", .beforeWaiting), ("asleep", nil), ("after waiting", .afterWaiting), ("exit", .exit),
    ]
    /// The columns' labels: each column is as wide as its label and a space, at least ``minimumWidth``.
    /// `/pass` is the most jobs one pass of the second ran.
    private static let header =
        ["second", "passes", "jobs", "/pass"] + RunLoop.WakeReason.allCases.map(\.label) + ["asleep", "depth"]
    private static let minimumWidth = 7

    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        canvas.fill()
        canvas.box(title: "Run loop phases, from an observer on every activity (1 returns)")
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        guard let reading = snapshot.phases, inner.height > 4 else { return }
        var column = 1
        for (index, (name, activity)) in cycle.enumerated() {
            if index > 0 { column = inner.put("›", row: 0, column: column, style: Style(.dim)) }
            let current = activity != nil && activity == reading.phase
            column = inner.put(name, row: 0, column: column, style: current ? Style(.accent, reverse: true) : .normal)
        }
        for (row, text) in modesLines(snapshot.loop).enumerated() {
            inner.put(PanelText.fitWords(" " + text, inner.width), row: 1 + row, column: 0)
        }
        inner.put(row(header), row: 3, column: 0, style: Style(.dim))
        let rows = Array(reading.seconds.suffix(max(inner.height - 6, 0)))
        let first = reading.firstSecond + reading.seconds.count - rows.count
        for (offset, second) in rows.enumerated() {
            inner.put(line(second, label: "\(first + offset)s"), row: 4 + offset, column: 0)
        }
        inner.put(
            line(reading.current, label: "now"), row: 4 + rows.count, column: 0, style: Style(.dim))
        inner.put(
            PanelText.fitWords(
                " Redrawn only when the loop wakes for other work: watching adds no wake-up.", inner.width),
            row: inner.height - 1, column: 0, style: Style(.dim))
    }

    /// The modes, which are common, and that the custom mode stays common once made so (C-M5).
    static func modesLines(_ loop: LoopStatus) -> [String] {
        let common = loop.commonModes.map(\.rawValue).joined(separator: ", ")
        let modal =
            loop.commonModes.contains(.modal)
            ? "\"modal\" is common for good (C-M5): CF has no way to remove a common mode"
            : "custom mode \"modal\": M runs it until M again, C makes it common (for good)"
        return ["running \(PanelText.mode(loop.mode)) at depth \(loop.depth) · common modes: \(common)", modal]
    }

    private static func line(_ second: PhaseSecond, label: String) -> String {
        let asleep = Int(second.asleep.nanoseconds / 10_000_000)
        let cells =
            [label, "\(second.passes)", "\(second.jobs)", "\(second.mostJobsInAPass)"]
            + RunLoop.WakeReason.allCases.map { "\(second.wakes[$0] ?? 0)" }
            + ["\(asleep)%", "\(second.depth)"]
        return row(cells)
    }

    /// `cells` right-aligned in the columns of ``header``: the first (the second's number) as wide as
    /// its label, the others with a space before it.
    private static func row(_ cells: [String]) -> String {
        zip(cells, header).enumerated().map { index, cell in
            let width = index == 0 ? cell.1.count : max(cell.1.count + 1, minimumWidth)
            return String(repeating: " ", count: max(width - cell.0.count, 0)) + cell.0
        }.joined()
    }
}
