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
    /// The grid's size.
    public private(set) var size: Size
    private var cells: [Cell]
    private var changedRows: Set<Int> = []

    /// A blank grid of `size`.
    public init(size: Size) {
        self.size = size
        cells = Array(repeating: .blank, count: size.width * size.height)
        changedRows = Set(0..<size.height)
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
        changedRows.insert(row)
    }

    /// Whether anything changed since the last ``takeChanges()``.
    public var hasChanges: Bool { !changedRows.isEmpty }

    /// The rows that changed since the last call, in order; clears the record.
    public func takeChanges() -> [Int] {
        defer { changedRows.removeAll(keepingCapacity: true) }
        return changedRows.sorted()
    }

    /// Marks every row changed, so the next flush repaints the whole screen (after a suspend).
    public func markAllChanged() {
        changedRows = Set(0..<size.height)
    }

    /// Resizes to `size`, blanking everything (every row counts as changed).
    public func resize(to size: Size) {
        self.size = size
        cells = Array(repeating: .blank, count: size.width * size.height)
        changedRows = Set(0..<size.height)
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
