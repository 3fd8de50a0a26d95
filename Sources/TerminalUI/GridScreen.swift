/// An in-memory screen: what tests and `--headless` mode draw into, printable as plain text.
///
/// ```swift
/// let screen = GridScreen(size: Size(width: 80, height: 24))
/// screen.canvas.put("hello", row: 0, column: 0)
/// screen.flush()
/// print(screen.snapshot())
/// ```
public final class GridScreen: Screen {
    private let grid: CellGrid
    public private(set) var updateCount = 0
    /// How many times the bell rang (``ring()``).
    public private(set) var ringCount = 0

    /// What a ring does besides being counted (the plain mode writes the bell character).
    public var onRing: (() -> Void)?

    /// Counts the ring (a grid has no bell) and calls ``onRing``.
    public func ring() {
        ringCount += 1
        onRing?()
    }

    /// The control sequences ``emit(_:)`` was given, oldest first.
    public private(set) var emitted: [String] = []

    public func emit(_ sequence: String) {
        emitted.append(sequence)
    }

    /// A blank screen of `size`.
    public init(size: Size) {
        grid = CellGrid(size: size)
    }

    public var size: Size { grid.size }

    public var canvas: Canvas { Canvas(grid: grid, bounds: Rect(grid.size)) }

    /// Resizes (and blanks) the screen, as a terminal resize would.
    public func resize(to size: Size) {
        grid.resize(to: size)
    }

    /// What the last flush that updated the screen changed, by row: a terminal would be sent
    /// these cells only.
    public private(set) var lastChanges: [CellGrid.Change] = []

    public func flush() {
        guard grid.hasChanges else { return }
        lastChanges = grid.takeChanges()
        updateCount += 1
    }

    /// The cell at (`row`, `column`), for style assertions.
    public func cell(row: Int, column: Int) -> Cell {
        grid[row, column]
    }

    /// The screen as text: one line per row, trailing spaces trimmed.
    public func snapshot() -> String {
        (0..<grid.size.height).map { grid.text(row: $0) }.joined(separator: "\n")
    }

    /// How the screen looks under `palette`, for golden screens of themes: one line per row with a
    /// letter per cell (`.` for a plain cell, the letters in the order their looks first appear),
    /// then a legend with each letter's ``Appearance``.
    public func appearances(under palette: Palette) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var codes: [Appearance: Character] = [:]
        var legend: [String] = []
        let plain = palette.appearance(of: .normal)
        var lines: [String] = []
        for row in 0..<grid.size.height {
            var line = ""
            for column in 0..<grid.size.width where !grid[row, column].isContinuation {
                let appearance = palette.appearance(of: grid[row, column].style)
                if appearance == plain {
                    line.append(".")
                } else if let code = codes[appearance] {
                    line.append(code)
                } else {
                    let code = codes.count < letters.count ? letters[codes.count] : "?"
                    codes[appearance] = code
                    legend.append("\(code) \(appearance)")
                    line.append(code)
                }
            }
            lines.append(line)
        }
        return (lines + [". \(plain)"] + legend).joined(separator: "\n")
    }
}
