/// Where the dashboard draws: a real terminal (``CursesScreen``) or memory (``GridScreen``).
///
/// Callers draw through ``canvas`` and call ``flush()`` once per frame; a flush with nothing
/// changed does nothing at all.
public protocol Screen: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// A canvas over the whole screen.
    var canvas: Canvas { get }
    /// Pushes what changed to the display; does nothing when nothing changed.
    func flush()
    /// How many flushes actually updated the display.
    var updateCount: Int { get }
    /// Rings the terminal bell.
    func ring()
    /// Writes `sequence`, a control sequence the terminal acts on without drawing (a
    /// ``TerminalNotification``), after what was drawn.
    func emit(_ sequence: String)
}

/// The message shown instead of the dashboard when the terminal is too small.
public enum MinimumSize {
    /// Draws "enlarge the terminal to at least W×H" centred on `screen`.
    public static func draw(on screen: any Screen, minimum: Size) {
        let canvas = screen.canvas
        canvas.fill()
        canvas.centered(["enlarge the terminal to at least \(minimum)", "(now \(screen.size))"], style: Style(.warn))
    }
}
