import Foundation
import RunLoopKit
import TerminalUI
import Testing

@testable import TimerDeck
@testable import Uploads

/// What the screen says can be read: the title bar keeps its state indicators, every message the
/// status bar cuts is whole in the help, the keymap names the keys the config bound, and the keys
/// do what they say (`d` can be undone, `f` says why it did nothing).
@Suite("A readable screen: whole messages, the bound keys, keys that say what they did")
struct ReadableScreenTests {
    static let gcd = RowID(number: 2)

    func state(_ config: String = "", uploadsLabel: String? = "dir (test)") throws -> DashboardState {
        var state = DashboardState(
            scene: .standard(try Config.parse(config), uploadsLabel: uploadsLabel), size: DashboardLayout.minimumSize)
        _ = state.apply(.launch)
        return state
    }

    func screen(of state: DashboardState, common: [RunLoopKit.RunLoop.Mode] = [.default]) -> String {
        let screen = GridScreen(size: state.layout.size)
        DashboardView(screen: screen).render(
            DashboardSnapshot(
                state: state,
                loop: LoopStatus(
                    mode: RunLoopKit.RunLoop.Mode.default, depth: 1, commonModes: common, now: .zero, startTime: .zero),
                readings: [:]),
            parts: .all)
        return screen.snapshot()
    }

    /// Selects row `index` of the inspector.
    func select(_ index: Int, in state: inout DashboardState) {
        _ = state.apply(.focus(.inspector))
        for _ in 0..<index { _ = state.apply(.key(.down)) }
    }

    @Test("The title bar keeps the pause and the slow motion when it is full: the common modes give way")
    func titleKeepsStateIndicators() throws {
        let snapshots = try runHeadless("key C\nkey t\nkey <\nkey space\nsnapshot\n")
        let title = try #require(snapshots.first?.screen.split(separator: "\n").first.map(String.init))
        #expect(title.contains("mode: tracking  depth: 2"))
        #expect(title == " mode: tracking  depth: 2  common: [default +2]  ⇅ held (t)  ⏸ paused ¼×", "\(title)")
        #expect(CharacterWidth.of(title) <= 80)
    }

    @Test("The common modes shorten to whole modes and a count, then go")
    func commonModesShorten() {
        #expect(TitleBar.commonModes(["default", "tracking"], room: 40) == "  common: [default, tracking]")
        #expect(TitleBar.commonModes(["default", "tracking"], room: 22) == "  common: [default +1]")
        #expect(TitleBar.commonModes(["default", "tracking"], room: 21) == "  common: [+2]")
        #expect(TitleBar.commonModes(["default", "tracking"], room: 13) == nil)
    }

    @Test("m on a dispatch timer: the cut message says ? shows it, and the help holds it in full")
    func cutMessageIsWholeInHelp() throws {
        var state = try state()
        select(2, in: &state)
        _ = state.apply(.key(.character("m")))
        let hint = try #require(state.hint)
        #expect(hint.hasPrefix("sms-gcd: "))
        #expect(CharacterWidth.of(hint) > state.layout.hintWidth)
        let bar = line(screen(of: state), containing: "sms-gcd: ")
        #expect(bar.hasSuffix(" [? in full]"), "\(bar)")
        _ = state.apply(.key(.character("?")))
        #expect(state.isHelpVisible)
        #expect(state.messages == ["Status: \(hint)"])
        let wrapped = state.helpLines.prefix { !$0.isEmpty }.dropFirst()
        #expect(wrapped.map { $0.trimmingPrefix("  ") }.joined(separator: " ") == "Status: \(hint)")
        // Scrolling the help keeps it; closing the help lets it go.
        _ = state.apply(.key(.down))
        #expect(state.messages == ["Status: \(hint)"])
        _ = state.apply(.key(.escape))
        #expect(state.hint == nil && !state.isHelpVisible)
    }

    @Test("d on the uploader: the reason is whole in the help")
    func deleteRefusalIsWholeInHelp() throws {
        var state = try state()
        select(5, in: &state)
        _ = state.apply(.key(.character("d")))
        let hint = try #require(state.hint)
        #expect(hint.hasPrefix("uploader drives the uploads"))
        _ = state.apply(.key(.character("?")))
        #expect(state.messages == ["Status: \(hint)"])
    }

    @Test("? opens the help from the add-timer form, which shows the form's error in full; Esc returns to the form")
    func helpFromTheAddForm() throws {
        var state = try state()
        _ = state.apply(.key(.character("a")))
        for character in "tea 0s" { _ = state.apply(.key(.character(character))) }
        let hint = try #require(state.hint)
        #expect(hint.contains("accepted"), "\(hint)")
        #expect(CharacterWidth.of(hint) > state.layout.hintWidth)
        #expect(line(screen(of: state), containing: "add timer: tea 0s").hasSuffix(" [? in full]"))
        _ = state.apply(.key(.character("?")))
        #expect(state.isHelpVisible && state.prompt?.text == "tea 0s", "? is not typed into the form")
        #expect(state.messages == ["Status: \(hint)"])
        _ = state.apply(.key(.character("x")))
        #expect(state.prompt?.text == "tea 0s", "keys do not reach the form under the help")
        _ = state.apply(.key(.escape))
        #expect(!state.isHelpVisible && state.prompt?.text == "tea 0s" && state.hint == hint)
        _ = state.apply(.key(.backspace))
        #expect(state.prompt?.text == "tea 0")
    }

    @Test("The help names where uploads go in full, however long the URL")
    func fullSinkURLInHelp() throws {
        let url = "https://metrics-collector.example.internal:9443/api/v1/push/timerdeck"
        var state = try state(uploadsLabel: url)
        #expect(!screen(of: state).contains(url), "the panel's title cuts it")
        _ = state.apply(.key(.character("?")))
        #expect(state.helpLines.contains("  \(url)"))
        #expect(screen(of: state).contains(url))
    }

    @Test("The keymap in the help shows the keys the config bound, not the defaults")
    func helpShowsBoundKeys() throws {
        let state = try state("[keys]\nstart-stop = \"S\"\nquit = \"Q\"\nstep = \"n\"\n")
        #expect(state.helpLines.contains("S                 start / stop the selected timer"))
        #expect(state.helpLines.contains("Q                 quit"))
        #expect(state.helpLines.contains("space n           pause / resume all timers; step to the next fire"))
        #expect(!state.helpLines.contains { $0.hasPrefix("s ") || $0.hasPrefix("q ") })
        #expect(Keymap.help(KeyBindings()).contains("s                 start / stop the selected timer"))
        #expect(Keymap.help(KeyBindings()).count == Keymap.lines.count)
    }

    @Test("The keymap's table lists every action once, so the help shows every bindable key")
    func everyActionInTheTable() {
        let listed = Keymap.lines.flatMap(\.keys).compactMap { key -> KeyAction? in
            if case .action(let action) = key { action } else { nil }
        }
        #expect(listed.sorted { $0.rawValue < $1.rawValue } == KeyAction.allCases.sorted { $0.rawValue < $1.rawValue })
    }

    @Test("An unrecognised key is named once, as such")
    func unknownKeyWording() throws {
        var state = try state()
        _ = state.apply(.key(.unknown("ESC [99~")))
        #expect(state.hint == "an unrecognised key (ESC [99~) does nothing here — press ? for help")
        _ = state.apply(.key(.character("%")))
        #expect(state.hint == "key % does nothing here — press ? for help")
    }

    @Test("d deletes a timer and says u puts it back; u does, where it was, with its definition, running again")
    func undoDelete() throws {
        var state = try state(
            "[[timers]]\nname = \"tea\"\ninterval = \"3s\"\n[[timers]]\nname = \"beat\"\ninterval = \"2s\"\n")
        let before = state.rows.map(\.name)
        let tea = try #require(state.rows.firstIndex { $0.name == "tea" })
        select(tea, in: &state)
        let teaID = state.rows[tea].id
        #expect(state.apply(.key(.character("d"))).contains(.deleteTimer(teaID)))
        #expect(state.hint == "deleted tea: u puts it back")
        #expect(!state.rows.contains { $0.name == "tea" })
        let effects = state.apply(.key(.character("u")))
        #expect(state.rows.map(\.name) == before)
        let row = state.rows[tea]
        #expect(row.definition.interval == .seconds(3) && row.run == .running)
        #expect(effects.contains(.addTimer(row.id)) && effects.contains(.start(row.id)))
        #expect(state.hint == "put back tea, running")
        _ = state.apply(.key(.character("u")))
        #expect(state.hint == "nothing to put back: d deletes the selected timer")
    }

    @Test("u does not put back a timer whose name was taken since")
    func undoDeleteKeepsNamesUnique() throws {
        var state = try state("[[timers]]\nname = \"tea\"\ninterval = \"3s\"\n")
        select(try #require(state.rows.firstIndex { $0.name == "tea" }), in: &state)
        _ = state.apply(.key(.character("d")))
        _ = state.apply(.key(.character("a")))
        for character in "tea 5s" { _ = state.apply(.key(.character(character))) }
        _ = state.apply(.key(.enter))
        _ = state.apply(.key(.character("u")))
        #expect(state.rows.filter { $0.name == "tea" }.count == 1)
        #expect(state.hint == "a timer named tea was added since: delete it to put the old one back")
    }

    @Test("f on a stopped timer says why nothing happened")
    func fireOnStoppedTimer() throws {
        var state = try state()
        select(0, in: &state)
        let effects = state.apply(.key(.character("f")))
        #expect(effects.allSatisfy { if case .fire = $0 { false } else { true } })
        #expect(state.hint == "sms-default is stopped: s starts it, then it can fire")
    }

    @Test("f on the uploader during a retry's backoff sends now, and says so")
    func uploadNowDuringBackoff() throws {
        var state = try state()
        var status = UploadStatus()
        status.retryAt = Instant(nanoseconds: 60_000_000_000)
        _ = state.apply(.pipelineStatus(status))
        select(5, in: &state)
        #expect(state.selectedRow?.name == "uploader")
        let effects = state.apply(.key(.character("f")))
        #expect(effects.contains(.fire(try #require(state.selectedRow?.id))))
        #expect(state.hint == "uploader: sending now, without waiting out the retry's backoff")
    }

    @Test("--record with quit bound to Q: q is recorded as a key and Q ends the recording")
    func recordingEndsAtTheBoundQuitKey() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loop = RunLoopKit.RunLoop(timeSource: .virtual(VirtualClock()))
        let driver = DashboardDriver(
            scene: .standard(try Config.parse("[keys]\nquit = \"Q\"\n"), uploadsLabel: nil), loop: loop,
            screen: GridScreen(size: DashboardLayout.minimumSize), pipeline: nil, rendersOnChange: false)
        let recorder = try SessionRecorder(path: path)
        recorder.begin(size: DashboardLayout.minimumSize, at: driver.startTime)
        driver.recorder = recorder
        RunLoopKit.RunLoop.withCurrent(loop) {
            driver.launch()
            driver.receive([.character("q"), .character("a"), .character("Q")])
            #expect(!driver.quitRequested, "Q typed into the add form")
            driver.receive([.escape, .character("Q"), .character("s")])
        }
        #expect(driver.quitRequested)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("key q\nkey a\nkey Q\nkey esc\nsnapshot\nkey Q\n"), "\(text)")
    }
}
