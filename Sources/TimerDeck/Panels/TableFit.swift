import TerminalUI

/// Column widths for a table whose cells each come in forms from the fullest to the shortest
/// ("RunLoop Timer 250ms", "Timer 250ms"; "in 23h59m59s", "in 24h").
///
/// Each column is as wide as its fullest content. When the columns do not fit, the column that can
/// give up the most room moves to its next shorter forms, until they fit; a column's cells then
/// all show the same form (the fullest that every one of them fits in), so a value is abbreviated,
/// never cut into another number. Only text without a shorter form (a timer's name) is ever
/// shortened, with an ellipsis.
struct TableFit: Equatable {
    /// Each column's width in cells.
    let widths: [Int]
    /// Which of its forms each column's cells show (0: the fullest; a cell with fewer forms shows its last).
    private let levels: [Int]

    /// The widths for `rows` (each a cell's forms per column, the title's forms first) in `width`
    /// cells, with one space before each column. A column is at least its `preferred` width while
    /// there is room, so its values do not shift as they change length.
    init(_ rows: [[[String]]], preferred: [Int], width: Int) {
        let columnCount = rows.first?.count ?? 0
        let columns = (0..<columnCount).map { column in rows.map { $0[column] } }
        var widths = zip(columns, preferred).map { cells, preferred in
            max(cells.map { CharacterWidth.of($0.first ?? "") }.max() ?? 0, preferred)
        }
        let floors = columns.map { cells in cells.map { CharacterWidth.of($0.last ?? "") }.max() ?? 0 }
        var excess = widths.reduce(columnCount, +) - width
        while excess > 0 {
            let candidates = widths.indices.filter { widths[$0] > floors[$0] }
            guard let column = candidates.max(by: { widths[$0] - floors[$0] < widths[$1] - floors[$1] }) else { break }
            let narrower = columns[column].map { forms in
                forms.lazy.map(CharacterWidth.of).first { $0 < widths[column] } ?? CharacterWidth.of(forms.last ?? "")
            }
            let next = max(narrower.max() ?? 0, floors[column], widths[column] - excess)
            excess -= widths[column] - next
            widths[column] = next
        }
        // Still too wide: the widest columns give up cells, their text shortened with an ellipsis.
        while excess > 0, let column = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[column] > 1 {
            widths[column] -= 1
            excess -= 1
        }
        self.widths = widths
        levels = zip(columns, widths).map { cells, width in
            let rows = cells.dropFirst()
            let deepest = rows.map(\.count).max() ?? 1
            return (0..<deepest).first { level in
                rows.allSatisfy { CharacterWidth.of($0[min(level, $0.count - 1)]) <= width }
            } ?? max(deepest - 1, 0)
        }
    }

    /// A row's cell of `column` in the column's form, padded to its width.
    func cell(_ forms: [String], column: Int) -> String {
        Self.cell(Array(forms.dropFirst(min(levels[column], max(forms.count - 1, 0)))), widths[column])
    }

    /// The fullest of `forms` that fits `width` cells, padded to it; the shortest with an ellipsis
    /// when none fits.
    static func cell(_ forms: [String], _ width: Int) -> String {
        let text = forms.first { CharacterWidth.of($0) <= width } ?? TextFit.truncate(forms.last ?? "", to: width)
        return PanelText.fit(text, width)
    }
}
