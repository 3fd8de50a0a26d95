/// One terminal cell: a character and its style. The right half of a wide character is a
/// `continuation` cell that the terminal fills by itself.
public struct Cell: Equatable, Sendable {
    public var character: Character
    public var style: Style
    public var isContinuation: Bool

    /// A cell showing `character`.
    public init(_ character: Character = " ", style: Style = .normal, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    /// An empty cell.
    public static let blank = Cell()
}

/// The cells of a screen, remembering which changed since the last ``takeChanges()``.
public final class CellGrid {
    /// The cells of one row that changed: a screen redraws `columns` of `row` only.
    public struct Change: Equatable, Sendable {
        public var row: Int
        /// From the first to the last changed column of the row.
        public var columns: Range<Int>
    }

    /// The grid's size.
    public private(set) var size: Size
    private var cells: [Cell]
    /// By row: the changed columns (empty when the row did not change).
    private var changedColumns: [Range<Int>]
    private var changedRowCount = 0

    /// A blank grid of `size`.
    public init(size: Size) {
        self.size = size
        cells = Array(repeating: .blank, count: size.width * size.height)
        changedColumns = Array(repeating: 0..<size.width, count: size.height)
        changedRowCount = size.width > 0 ? size.height : 0
    }

    /// The cell at (`row`, `column`).
    public subscript(row: Int, column: Int) -> Cell {
        cells[row * size.width + column]
    }

    /// Writes a cell; a cell equal to what is there is not a change.
    public func set(_ cell: Cell, row: Int, column: Int) {
        guard row >= 0, row < size.height, column >= 0, column < size.width else { return }
        let index = row * size.width + column
        guard cells[index] != cell else { return }
        cells[index] = cell
        let span = changedColumns[row]
        if span.isEmpty {
            changedColumns[row] = column..<column + 1
            changedRowCount += 1
        } else if !span.contains(column) {
            changedColumns[row] = min(span.lowerBound, column)..<max(span.upperBound, column + 1)
        }
    }

    /// Whether anything changed since the last ``takeChanges()``.
    public var hasChanges: Bool { changedRowCount > 0 }

    /// The changes since the last call, by row in order; clears the record.
    public func takeChanges() -> [Change] {
        var changes: [Change] = []
        changes.reserveCapacity(changedRowCount)
        for row in changedColumns.indices where !changedColumns[row].isEmpty {
            changes.append(Change(row: row, columns: changedColumns[row]))
            changedColumns[row] = 0..<0
        }
        changedRowCount = 0
        return changes
    }

    /// Marks every cell changed, so the next flush repaints the whole screen (after a suspend).
    public func markAllChanged() {
        changedColumns = Array(repeating: 0..<size.width, count: size.height)
        changedRowCount = size.width > 0 ? size.height : 0
    }

    /// Resizes to `size`, blanking everything (every cell counts as changed).
    public func resize(to size: Size) {
        self.size = size
        cells = Array(repeating: .blank, count: size.width * size.height)
        markAllChanged()
    }

    /// Row `row` as plain text: continuation cells skipped, trailing spaces trimmed.
    public func text(row: Int) -> String {
        var line = ""
        for column in 0..<size.width where !self[row, column].isContinuation {
            line.append(self[row, column].character)
        }
        while line.last == " " { line.removeLast() }
        return line
    }
}
