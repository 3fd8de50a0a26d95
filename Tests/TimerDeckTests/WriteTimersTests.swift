import Foundation
import TestSupport
import Testing

@testable import TimerDeck

@Suite("W: the timers written back to a config file that loads to the same timers")
struct WriteTimersTests {
    static let config = """
        [[timers]]
        name = "tea"
        mechanism = "dispatch"
        interval = "3m"
        repeats = false
        clock = "wall"
        first_fire = "now"
        bell = true
        hook = "notify-send \\"tea is \\\\ ready\\""
        hook_limit = "2s"
        act_on = "end"

        [[timers]]
        name = "beat"
        interval = "250ms"
        mode = "common"
        tolerance = "50ms"
        flash = true
        """

    @Test("The written text loads back to the same timers, quotes and backslashes in a hook included")
    func configTextRoundTrips() throws {
        let timers = try Config.parse(Self.config).timers
        #expect(timers.count == 2)
        #expect(timers[0].actions.hook == "notify-send \"tea is \\ ready\"")
        #expect(try Config.parse(TimerDefinition.configText(timers)).timers == timers)
    }

    @Test("A field is written only where it differs from a table without it; name and mechanism always")
    func onlyChangedFieldsAreWritten() throws {
        let timers = try Config.parse(Self.config).timers
        let text = TimerDefinition.configText(timers)
        let beat = try #require(text.components(separatedBy: "[[timers]]").last)
        #expect(
            beat.split(separator: "\n").sorted() == [
                "flash = true", "interval = \"250ms\"", "mechanism = \"runloop\"", "mode = \"common\"",
                "name = \"beat\"", "tolerance = \"50ms\"",
            ])
        #expect(!text.contains("hook = \"\"\n"))
    }

    @Test("W asks for a file in the status bar; Enter writes the timers there and the file loads to the same scene")
    func writeFromTheDashboard() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("timers-\(UUID().uuidString).toml")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try Config.parse(Self.config)
        let typing = Self.keys(typing: path)
        let snapshots = try runHeadless(
            "key W\nkey /\nkey backspace\nsnapshot\n\(typing)\nkey enter\nsnapshot\n", config: config)
        #expect(snapshots[0].screen.contains("write the timers to (Enter writes, Esc cancels): ▏"))
        #expect(snapshots[1].screen.contains("wrote the timers to"))
        let written = try Config.load(from: path)
        #expect(written.timers == config.timers)
        let scene = DashboardState(scene: .standard(written, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let original = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        #expect(scene.rows == original.rows)
    }

    @Test("Esc cancels the prompt; with no timers left, W says how to define them")
    func cancelAndNothingToWrite() throws {
        let cancelled = try runHeadless("key W\nkey x\nkey esc\nsnapshot\n", config: Config.parse(Self.config))
        #expect(cancelled[0].screen.contains("cancelled"))
        let none = try runHeadless(
            "key tab\nkey tab\nkey d\nkey W\nsnapshot\n", config: Config.parse("[[timers]]\nname = \"tea\""))
        #expect(none[0].screen.contains("no timers to write: add one with a"))
    }

    @Test("W never overwrites a file without Enter at a second question; Esc keeps it as it was")
    func existingFileNeedsConfirmation() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write("# mine\n", to: "timers.toml")
        let config = try Config.parse(Self.config)
        let typing = Self.keys(typing: path)
        let kept = try runHeadless(
            "size 200x40\nkey W\n\(typing)\nkey enter\nsnapshot\nkey y\nkey esc\nsnapshot\n", config: config)
        #expect(kept[0].screen.contains("exists: Enter overwrites it, Esc keeps it"))
        #expect(kept[1].screen.contains("kept"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "# mine\n")
        let replaced = try runHeadless("key W\n\(typing)\nkey enter\nkey enter\nsnapshot\n", config: config)
        #expect(replaced[0].screen.contains("wrote the timers to"))
        #expect(try Config.load(from: path).timers == config.timers)
    }

    @Test("W to a directory says so at once, without asking to overwrite it")
    func directoryIsRefusedAtOnce() throws {
        let scratch = try ScratchDirectory()
        let directory = scratch.path("timers").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let script = "size 200x40\nkey W\n\(Self.keys(typing: directory))\nkey enter\nsnapshot\n"
        let screens = try runHeadless(script, config: try Config.parse(Self.config))
        #expect(screens[0].screen.contains("is a directory; name a file in it"))
        #expect(!screens[0].screen.contains("Enter overwrites"))
    }

    @Test("W on the running config says its other sections and comments are lost before asking to overwrite")
    func runningConfigSaysWhatIsLost() throws {
        let scratch = try ScratchDirectory()
        let path = try scratch.write(Self.config, to: "config.toml")
        var lines: [String] = []
        let typing = Self.keys(typing: path)
        let session = try HeadlessSession(
            config: Config.load(from: path), configPath: path, uploads: nil,
            script: HeadlessScript(parsing: "size 200x40\nkey W\n\(typing)\nkey enter\nsnapshot\n")
        ) { lines.append($0) }
        session.run()
        #expect(
            lines.joined().contains(
                "is the running config: Enter overwrites it (its comments and every section but [[timers]] are lost)"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.config)
    }

    @Test("A path typed with ~/ is written in the home directory")
    func homeIsExpanded() {
        #expect(DashboardDriver.expandingHome("~/timers.toml", home: "/home/me") == "/home/me/timers.toml")
        #expect(DashboardDriver.expandingHome("~", home: "/home/me") == "/home/me")
        #expect(DashboardDriver.expandingHome("~other/x", home: "/home/me") == "~other/x")
        #expect(DashboardDriver.expandingHome("/tmp/~/x", home: "/home/me") == "/tmp/~/x")
    }

    /// The script lines that type `text`, one key per character.
    private static func keys(typing text: String) -> String {
        text.map { "key \($0)" }.joined(separator: "\n")
    }
}
