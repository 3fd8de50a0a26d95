import Testing

@testable import TerminalUI

@Suite("CellGrid changes")
struct CellGridTests {
    @Test("A new grid is changed everywhere; taking the changes clears them")
    func newGridIsChangedEverywhere() {
        let grid = CellGrid(size: Size(width: 4, height: 2))
        #expect(
            grid.takeChanges() == [CellGrid.Change(row: 0, columns: 0..<4), CellGrid.Change(row: 1, columns: 0..<4)])
        #expect(!grid.hasChanges)
        #expect(grid.takeChanges().isEmpty)
    }

    @Test("Each row reports the span from its first to its last changed cell, rows in order")
    func changesSpanFirstToLastChangedColumn() {
        let grid = CellGrid(size: Size(width: 10, height: 3))
        _ = grid.takeChanges()
        grid.set(Cell("b"), row: 2, column: 7)
        grid.set(Cell("a"), row: 0, column: 5)
        grid.set(Cell("c"), row: 2, column: 3)
        grid.set(Cell("d"), row: 2, column: 4)
        #expect(
            grid.takeChanges() == [CellGrid.Change(row: 0, columns: 5..<6), CellGrid.Change(row: 2, columns: 3..<8)])
    }

    @Test("Writing the cell that is already there is not a change")
    func equalCellIsNoChange() {
        let grid = CellGrid(size: Size(width: 3, height: 1))
        grid.set(Cell("x", style: Style(.good)), row: 0, column: 1)
        _ = grid.takeChanges()
        grid.set(Cell("x", style: Style(.good)), row: 0, column: 1)
        #expect(!grid.hasChanges)
        grid.set(Cell("x", style: Style(.bad)), row: 0, column: 1)
        #expect(grid.takeChanges() == [CellGrid.Change(row: 0, columns: 1..<2)])
    }

    @Test("Marking all changed and resizing repaint every column of every row")
    func markAllAndResizeCoverEverything() {
        let grid = CellGrid(size: Size(width: 3, height: 1))
        _ = grid.takeChanges()
        grid.markAllChanged()
        #expect(grid.takeChanges() == [CellGrid.Change(row: 0, columns: 0..<3)])
        grid.resize(to: Size(width: 2, height: 2))
        #expect(
            grid.takeChanges() == [CellGrid.Change(row: 0, columns: 0..<2), CellGrid.Change(row: 1, columns: 0..<2)])
    }
}
