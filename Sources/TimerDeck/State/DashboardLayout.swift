import TerminalUI

/// Where each panel goes on a screen of a given size. Part of the state, so the page a key scrolls
/// and the oldest entry `Home` shows follow the size the screen has now.
struct DashboardLayout: Equatable, Sendable {
    /// The smallest screen the dashboard fits on.
    static let minimumSize = Size(width: 80, height: 24)
    /// Height of the SMS and ripple panels with up to four rows in the SMS panel; it grows with
    /// more, up to a third of the screen, and scrolls beyond.
    static let topHeight = 6
    /// The rows the SMS panel shows at once (inside its border); more scroll.
    var countdownRows: Int { max((countdowns?.height ?? 2) - 2, 0) }
    /// Lines of keys the help overlay shows at once.
    var helpLines: Int { max(help.height - 2, 1) }
    /// The cells the status bar has for a hint (after its leading space); a longer one is cut.
    var hintWidth: Int { status.width - 1 }

    /// Width of the help overlay.
    static let helpWidth = 76
    /// The lines of the help's uploads part: its heading, where uploads go, a blank line.
    static let helpUploadsLines = 3

    /// The screen size.
    let size: Size
    var title, inspector, log, status, help: Rect
    /// The SMS panel and the ripple, at the top, when the scene has their rows; one alone takes
    /// the whole width, and without both the panels below move up.
    var countdowns, ticker: Rect?
    /// The upload panel, right of the log, when the dashboard has a pipeline.
    var uploads: Rect?

    /// The layout of a scene of `rowCount` rows, `countdownCount` of them in the SMS panel, with or
    /// without SMS rows, a ripple and an upload panel, on `size`.
    init(
        size: Size, rowCount: Int, hasUploads: Bool, hasCountdowns: Bool = true, hasTicker: Bool = true,
        countdownCount: Int = 0
    ) {
        self.size = size
        let grown = hasCountdowns ? min(countdownCount + 2, size.height / 3) : 0
        let topHeight = hasCountdowns || hasTicker ? max(Self.topHeight, grown) : 0
        // A scene with more timers gets a taller inspector on a taller terminal (a third of it).
        let inspectorHeight = min(max(rowCount + 3, 5), max(9, size.height / 3))
        let leftWidth = hasCountdowns ? (hasTicker ? size.width * 11 / 20 : size.width) : 0
        let logTop = 1 + topHeight + inspectorHeight
        let logHeight = max(size.height - logTop - 1, 0)
        let uploadsWidth = hasUploads ? 36 + max(size.width - Self.minimumSize.width, 0) / 3 : 0
        title = Rect(row: 0, column: 0, width: size.width, height: 1)
        countdowns = hasCountdowns ? Rect(row: 1, column: 0, width: leftWidth, height: topHeight) : nil
        ticker = hasTicker ? Rect(row: 1, column: leftWidth, width: size.width - leftWidth, height: topHeight) : nil
        inspector = Rect(row: 1 + topHeight, column: 0, width: size.width, height: inspectorHeight)
        log = Rect(row: logTop, column: 0, width: size.width - uploadsWidth, height: logHeight)
        status = Rect(row: size.height - 1, column: 0, width: size.width, height: 1)
        // Below the title, above the status bar; longer than that, it scrolls (↑ ↓).
        help = Rect(
            row: 2, column: max((size.width - Self.helpWidth) / 2, 0), width: Self.helpWidth,
            height: min(Keymap.lines.count + 2 + (hasUploads ? Self.helpUploadsLines : 0), max(size.height - 3, 3)))
        uploads =
            hasUploads
            ? Rect(row: logTop, column: size.width - uploadsWidth, width: uploadsWidth, height: logHeight) : nil
    }

    /// Whether the dashboard fits; smaller screens show how big they must be.
    var fits: Bool { size.fits(Self.minimumSize) }

    /// Fire log entries visible at once: what a page scrolls (the box and the header take 3 rows).
    var logPage: Int { max(log.height - 3, 1) }
}
