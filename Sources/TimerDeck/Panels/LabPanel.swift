import TerminalUI

/// The lifetime lab (`2`, L1–L3): per strategy, the screens opened and closed, those whose
/// `deinit` has not run, the timers still scheduled and the ticks delivered to closed screens —
/// counted by the screens' own initialisers, `deinit`s and timer callouts.
enum LabPanel {
    private static let labelWidth = 37
    private static let columns = [("opened", 7), ("closed", 7), ("alive", 6), ("timers", 7), ("after close", 12)]

    static func draw(_ snapshot: DashboardSnapshot, on canvas: Canvas) {
        canvas.fill()
        canvas.box(title: "Lifetime lab: screens that own a repeating 1 s timer (1 returns)")
        let inner = canvas.region(canvas.bounds.inset.relative(to: canvas.bounds))
        guard inner.height > 2 else { return }
        let header = columns.map { name, width in String(repeating: " ", count: width - name.count) + name }
        inner.put(PanelText.fit("  strategy", labelWidth + 2) + header.joined(), row: 0, column: 0, style: Style(.dim))
        let selected = snapshot.state.labStrategy
        for strategy in LabStrategy.allCases where strategy.rawValue + 1 < inner.height {
            let reading = snapshot.lab.indices.contains(strategy.rawValue) ? snapshot.lab[strategy.rawValue] : nil
            let values = reading.map { [$0.opened, $0.closed, $0.alive, $0.scheduled, $0.firesAfterClose] }
            let cells = zip(columns, values ?? Array(repeating: 0, count: columns.count)).map { column, value in
                PanelText.fit(String(repeating: " ", count: max(column.1 - "\(value)".count, 0)) + "\(value)", column.1)
            }
            let leaking = (reading?.firesAfterClose ?? 0) > 0 && (reading?.scheduled ?? 0) > 0
            let marker = strategy == selected ? "▸ " : "  "
            inner.put(
                marker + PanelText.fit(strategy.label, labelWidth) + cells.joined(), row: strategy.rawValue + 1,
                column: 0, style: leaking ? Style(.warn, bold: true) : strategy == selected ? Style(.accent) : .normal)
        }
        let notes = [
            selected.lesson,
            "alive: opened minus deinits run · timers: still scheduled · after close:",
            "ticks delivered to closed screens (a leak's count grows every second)",
            "↑↓ strategy  o open a screen  c close the newest  i invalidate leaked timers",
        ]
        for (offset, note) in notes.enumerated() {
            let row = LabStrategy.allCases.count + 2 + offset
            guard row < inner.height else { break }
            inner.put(
                PanelText.fitWords(note, inner.width), row: row, column: 0, style: offset == 0 ? .normal : Style(.dim))
        }
    }
}
