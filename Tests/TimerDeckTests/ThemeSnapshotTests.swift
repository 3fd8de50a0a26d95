import TerminalUI
import Testing

@testable import TimerDeck

/// The README's first screen under each built-in theme and without colour, at 80×24 and 120×40:
/// the text, then a letter per cell for how it looks (``GridScreen/appearances(under:)``), compared
/// with the files in Snapshots/ (``GoldenScreen``).
@Suite("Golden snapshots of the themes")
struct ThemeSnapshotTests {
    /// The buttons pressed and the loop held in tracking: running, waiting, selected and title cells.
    static let script =
        "key enter\nkey down\nkey enter\nkey down\nkey enter\nwait 3s\nkey t\nwait 4500ms\nsnapshot\n"

    @available(*, noasync)
    func check(_ name: String, config: Config = Config(), support: ColorSupport, script: String = Self.script) throws {
        for size in SnapshotTests.sizes {
            let screen = GridScreen(size: DashboardLayout.minimumSize)
            let uploads = try UploadsSetup(config: config, outboxPath: nil, uploadURL: nil, headless: true)
            let session = try HeadlessSession(
                config: config, uploads: uploads, script: HeadlessScript(parsing: "size \(size)\n" + script),
                screen: screen
            ) { _ in }
            session.run()
            let looks = screen.appearances(under: Palette(theme: config.theme, support: support))
            GoldenScreen.check(screen.snapshot() + "\n" + looks, named: "theme-\(name)-\(size)")
        }
    }

    @Test("The dark theme (the default) in 256 colours")
    func dark() throws {
        try check("dark", support: .palette256)
    }

    @Test("The light theme in 256 colours, one role given as #rrggbb and shown as the nearest of them")
    func light() throws {
        var config = Config()
        config.baseTheme = .light
        config.themeColors[.accent] = .rgb(red: 0xD7, green: 0x5F, blue: 0)
        try check("light", config: config, support: .palette256)
    }

    @Test("The ansi theme in the terminal's 16 colours")
    func ansi() throws {
        var config = Config()
        config.baseTheme = .ansi
        try check("ansi", config: config, support: .basic16)
    }

    @Test("NO_COLOR: no colour at all; bold, dim, underline and reverse tell the states apart")
    func noColor() throws {
        let support = ColorSupport.detect(colors: 256, hasColors: true, noColor: "1")
        try check("no-color", support: support)
    }

    @Test("NO_COLOR: the focus view (5) of a timer paused by tracking, its state in bold reverse")
    func noColorBigDigits() throws {
        let support = ColorSupport.detect(colors: 256, hasColors: true, noColor: "1")
        try check(
            "no-color-big-digits", support: support, script: "key enter\nwait 3s\nkey 5\nkey t\nwait 2s\nsnapshot\n")
    }
}
