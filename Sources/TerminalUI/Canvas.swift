/// Draws into a rectangular region of a screen, clipped to it. Panels get a canvas and never touch
/// the terminal: the same drawing code renders to ncurses and to the in-memory grid.
///
/// ```swift
/// let panel = screen.canvas.region(Rect(row: 1, column: 0, width: 40, height: 6))
/// panel.box(title: "SMS")
/// panel.put("Resend (59)", row: 1, column: 2, style: Style(.accent, bold: true))
/// screen.flush()
/// ```
public struct Canvas {
    private let grid: CellGrid
    /// The region in screen coordinates, already clipped to the screen.
    public let bounds: Rect
    /// Cells (in screen coordinates) this canvas leaves alone: what an overlay covers.
    public let mask: Rect?

    /// A canvas over `bounds` of `grid`; with `mask`, writes to the cells under it are dropped.
    public init(grid: CellGrid, bounds: Rect, mask: Rect? = nil) {
        self.grid = grid
        self.bounds = bounds.intersection(Rect(grid.size))
        self.mask = mask
    }

    /// This canvas with the cells of `rect` (relative to it) left alone: drawing beneath an overlay
    /// changes no cell of the overlay, so the overlay need not be redrawn after it.
    public func masking(_ rect: Rect) -> Canvas {
        let absolute = Rect(
            row: bounds.row + rect.row, column: bounds.column + rect.column,
            width: rect.width, height: rect.height)
        return Canvas(grid: grid, bounds: bounds, mask: absolute)
    }

    /// Columns available.
    public var width: Int { bounds.width }
    /// Rows available.
    public var height: Int { bounds.height }

    /// A canvas over `rect`, given relative to this one and clipped to it.
    public func region(_ rect: Rect) -> Canvas {
        let absolute = Rect(
            row: bounds.row + rect.row, column: bounds.column + rect.column,
            width: rect.width, height: rect.height)
        return Canvas(grid: grid, bounds: absolute.intersection(bounds), mask: mask)
    }

    /// Writes `text` from (`row`, `column`), clipped to the region and to `maxWidth` columns.
    /// Wide characters take two cells; one that would be cut in half becomes a space.
    /// - Returns: the column after the last cell written.
    @discardableResult
    public func put(_ text: String, row: Int, column: Int, style: Style = .normal, maxWidth: Int? = nil) -> Int {
        guard row >= 0, row < height else { return column }
        let limit = min(width, maxWidth.map { column + $0 } ?? width)
        var at = column
        for character in text {
            let cells = CharacterWidth.of(character)
            guard cells > 0 else { continue }
            if at + cells > limit {
                if at < limit && at >= 0 { set(Cell(" ", style: style), row: row, column: at) }
                return limit
            }
            if at >= 0 {
                set(Cell(character, style: style), row: row, column: at)
                if cells == 2 { set(Cell(" ", style: style, isContinuation: true), row: row, column: at + 1) }
            }
            at += cells
        }
        return at
    }

    /// Fills the whole region with spaces in `style`.
    public func fill(_ style: Style = .normal) {
        for row in 0..<height {
            for column in 0..<width { set(Cell(" ", style: style), row: row, column: column) }
        }
    }

    /// Clears from `column` to the end of `row`.
    public func clear(row: Int, from column: Int = 0, style: Style = .normal) {
        guard column < width else { return }
        for at in max(column, 0)..<width { set(Cell(" ", style: style), row: row, column: at) }
    }

    /// Draws a single-line border around the region, with `title` in its top edge.
    public func box(title: String? = nil, style: Style = Style(.dim), titleStyle: Style = Style(.title)) {
        guard width >= 2, height >= 2 else { return }
        for column in 1..<(width - 1) {
            set(Cell("─", style: style), row: 0, column: column)
            set(Cell("─", style: style), row: height - 1, column: column)
        }
        for row in 1..<(height - 1) {
            set(Cell("│", style: style), row: row, column: 0)
            set(Cell("│", style: style), row: row, column: width - 1)
        }
        set(Cell("┌", style: style), row: 0, column: 0)
        set(Cell("┐", style: style), row: 0, column: width - 1)
        set(Cell("└", style: style), row: height - 1, column: 0)
        set(Cell("┘", style: style), row: height - 1, column: width - 1)
        if let title, width > 4 {
            put(
                " \(TextFit.truncate(title, to: Self.titleRoom(inBoxOfWidth: width))) ", row: 0, column: 2,
                style: titleStyle, maxWidth: width - 4)
        }
    }

    /// The cells a ``box(title:style:titleStyle:)`` of `width` columns has for its title; a longer
    /// title is cut.
    public static func titleRoom(inBoxOfWidth width: Int) -> Int { width - 6 }

    /// Draws `lines` centred in the region.
    public func centered(_ lines: [String], style: Style = .normal) {
        let top = max((height - lines.count) / 2, 0)
        for (index, line) in lines.enumerated() {
            let column = max((width - CharacterWidth.of(line)) / 2, 0)
            put(line, row: top + index, column: column, style: style)
        }
    }

    private func set(_ cell: Cell, row: Int, column: Int) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        let screenRow = bounds.row + row
        let screenColumn = bounds.column + column
        if let mask, mask.contains(row: screenRow, column: screenColumn) { return }
        grid.set(cell, row: screenRow, column: screenColumn)
    }
}
