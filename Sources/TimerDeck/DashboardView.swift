import RunLoopKit
import TerminalUI

/// Lays the dashboard out on a screen and redraws the parts that changed, with one flush per render.
public final class DashboardView {
    /// The smallest screen the dashboard fits on.
    public static let minimumSize = Size(width: 80, height: 24)

    private let dashboard: Dashboard
    private let screen: any Screen
    private var lastSize: Size?
    /// How many renders drew something (tests and the benchmark read it).
    public private(set) var renderCount = 0

    /// A view of `dashboard` on `screen`.
    public init(dashboard: Dashboard, screen: any Screen) {
        self.dashboard = dashboard
        self.screen = screen
    }

    /// Rows of the fire log visible at the current size (what a page scrolls).
    public var logPage: Int {
        max(layout(for: screen.size).log.height - 3, 1)
    }

    /// Draws what changed since the last render and flushes once; nothing at all if nothing changed.
    public func render() {
        var parts = dashboard.takeDirtyParts()
        if screen.size != lastSize {
            parts = .all
            screen.canvas.fill()
            lastSize = screen.size
        }
        guard !parts.isEmpty else { return }
        guard screen.size.fits(Self.minimumSize) else {
            MinimumSize.draw(on: screen, minimum: Self.minimumSize)
            screen.flush()
            return
        }
        let layout = layout(for: screen.size)
        let canvas = screen.canvas
        if dashboard.isHelpVisible { parts = .all }
        if parts.contains(.title) { TitleBar.draw(dashboard, on: canvas.region(layout.title)) }
        if parts.contains(.countdowns) {
            CountdownPanel.draw(dashboard, on: canvas.region(layout.countdowns), focused: dashboard.focus == .countdowns)
        }
        if parts.contains(.ticker) {
            TickerPanel.draw(dashboard, on: canvas.region(layout.ticker), focused: dashboard.focus == .ticker)
        }
        if parts.contains(.inspector) {
            InspectorPanel.draw(dashboard, on: canvas.region(layout.inspector), focused: dashboard.focus == .inspector)
        }
        if parts.contains(.log) { FireLogPanel.draw(dashboard, on: canvas.region(layout.log), focused: dashboard.focus == .log) }
        if parts.contains(.uploads), let uploads = layout.uploads {
            UploadPanel.draw(dashboard, on: canvas.region(uploads), focused: dashboard.focus == .uploads)
        }
        if parts.contains(.status) || parts.contains(.title) { StatusBar.draw(dashboard, on: canvas.region(layout.status)) }
        if dashboard.isHelpVisible { HelpOverlay.draw(on: canvas.region(layout.help)) }
        screen.flush()
        renderCount += 1
    }

    /// Where each panel goes at `size`.
    struct Layout {
        var title, countdowns, ticker, inspector, log, status, help: Rect
        /// The upload panel, right of the log, when the dashboard has a pipeline.
        var uploads: Rect?
    }

    func layout(for size: Size) -> Layout {
        let topHeight = 6
        let inspectorHeight = min(max(dashboard.timers.count + 3, 5), 9)
        let leftWidth = size.width * 11 / 20
        let logTop = 1 + topHeight + inspectorHeight
        let logHeight = size.height - logTop - 1
        let uploadsWidth = dashboard.uploads == nil ? 0 : 36 + (size.width - Self.minimumSize.width) / 3
        return Layout(
            title: Rect(row: 0, column: 0, width: size.width, height: 1),
            countdowns: Rect(row: 1, column: 0, width: leftWidth, height: topHeight),
            ticker: Rect(row: 1, column: leftWidth, width: size.width - leftWidth, height: topHeight),
            inspector: Rect(row: 1 + topHeight, column: 0, width: size.width, height: inspectorHeight),
            log: Rect(row: logTop, column: 0, width: size.width - uploadsWidth, height: logHeight),
            status: Rect(row: size.height - 1, column: 0, width: size.width, height: 1),
            help: Rect(row: 3, column: (size.width - 76) / 2, width: 76, height: Keymap.help.count + 2),
            uploads: uploadsWidth == 0 ? nil
                : Rect(row: logTop, column: size.width - uploadsWidth, width: uploadsWidth, height: logHeight))
    }
}

/// Shared formatting of panel content.
enum PanelText {
    /// "1.5s", "never", "—".
    static func relative(_ instant: Instant?, now: Instant) -> String {
        guard let instant else { return "—" }
        guard instant != .distantFuture else { return "never" }
        let remaining = now.duration(to: instant)
        return remaining > .zero ? "in " + DurationText.format(remaining) : "due"
    }

    static func modes(_ modes: [RunLoop.Mode]?) -> String {
        guard let modes else { return "any mode" }
        return modes.map(\.rawValue).joined(separator: "+")
    }

    static func style(for state: DeckTimerState) -> Style {
        switch state {
        case .running: Style(.good)
        case .suspended: Style(.warn)
        case .waitingForMode: Style(.warn, bold: true)
        case .invalid: Style(.bad)
        case .idle: Style(.dim)
        }
    }

    /// `text` cut or padded to exactly `width` cells.
    static func fit(_ text: String, _ width: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let cells = CharacterWidth.of(character)
            guard used + cells <= width else { break }
            result.append(character)
            used += cells
        }
        return result + String(repeating: " ", count: max(width - used, 0))
    }
}
