/// A size in terminal cells.
public struct Size: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates a size of `width` columns and `height` rows.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Whether both dimensions are at least those of `minimum`.
    public func fits(_ minimum: Size) -> Bool {
        width >= minimum.width && height >= minimum.height
    }

    public var description: String { "\(width)×\(height)" }
}

/// A rectangle of cells: origin at (`row`, `column`), top-left being (0, 0).
public struct Rect: Equatable, Hashable, Sendable {
    public var row: Int
    public var column: Int
    public var width: Int
    public var height: Int

    /// Creates a rectangle.
    public init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = max(width, 0)
        self.height = max(height, 0)
    }

    /// The whole of `size`.
    public init(_ size: Size) {
        self.init(row: 0, column: 0, width: size.width, height: size.height)
    }

    /// The rectangle inside a one-cell border.
    public var inset: Rect {
        Rect(row: row + 1, column: column + 1, width: width - 2, height: height - 2)
    }

    /// Whether the cell at (`row`, `column`) lies inside.
    public func contains(row: Int, column: Int) -> Bool {
        row >= self.row && row < self.row + height && column >= self.column && column < self.column + width
    }

    /// The overlap of two rectangles (empty if none).
    public func intersection(_ other: Rect) -> Rect {
        let top = max(row, other.row)
        let left = max(column, other.column)
        let bottom = min(row + height, other.row + other.height)
        let right = min(column + width, other.column + other.width)
        return Rect(row: top, column: left, width: right - left, height: bottom - top)
    }
}
