import Foundation
import RunLoopKit
import TerminalUI
import Testing
import TimeUnits

@testable import TimerDeck

@Suite("--record: the live session's input as a headless script that replays it")
struct SessionRecorderTests {
    /// What a recorder wrote for `body`, which drives it.
    func recorded(_ body: (SessionRecorder) -> Void) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try SessionRecorder(path: path)
        body(recorder)
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    /// Records `keys` read at `time` as the driver does, the dashboard quitting at `q`.
    func record(_ keys: [Key], at time: Instant, to recorder: SessionRecorder) {
        recorder.input(at: time)
        for key in keys { recorder.key(key, quits: key == .character("q")) }
    }

    func milliseconds(_ value: Int64) -> Instant {
        Instant(nanoseconds: 5_000_000_000 + value * Nanoseconds.perMillisecond)
    }

    @Test(
        "Keys, wheel scrolls and resizes are written with the whole milliseconds between them; q ends with a snapshot")
    func recordingIsAScript() throws {
        let text = try recorded { recorder in
            recorder.begin(size: Size(width: 80, height: 24), at: milliseconds(0))
            record([.enter], at: milliseconds(1_500), to: recorder)
            record([.down, .character(" ")], at: milliseconds(1_500), to: recorder)
            record([.mouse(MouseEvent(kind: .wheelDown, row: 9, column: 4))], at: milliseconds(2_000), to: recorder)
            recorder.resize(to: Size(width: 120, height: 40), at: milliseconds(2_250))
            record([.function(5), .character("#")], at: milliseconds(2_250), to: recorder)
            record([.character("q")], at: milliseconds(9_000), to: recorder)
            recorder.finish(at: milliseconds(9_100))
        }
        #expect(text.hasPrefix("# timerdeck --record: replay with timerdeck --headless --script /"))
        #expect(
            text.drop { $0 != "\n" }.dropFirst() == """
                size 80x24
                wait 1500ms
                key enter
                key down
                key space
                wait 500ms
                key wheel-down
                wait 250ms
                size 120x40
                # F5: not replayable
                # #: not replayable
                wait 6750ms
                snapshot
                key q

                """)
        let script = try HeadlessScript(parsing: text)
        #expect(script.steps.filter { if case .key = $0 { true } else { false } }.count == 5)
    }

    @Test("A recorded session replays headless to the same screens as the session it recorded")
    func recordingReplays() throws {
        let text = try recorded { recorder in
            recorder.begin(size: Size(width: 80, height: 24), at: milliseconds(0))
            record([.enter], at: milliseconds(200), to: recorder)
            record([.character("t")], at: milliseconds(3_200), to: recorder)
            record([.character("t")], at: milliseconds(7_700), to: recorder)
            recorder.finish(at: milliseconds(8_000))
        }
        let replayed = try runHeadless(text)
        let direct = try runHeadless(
            "size 80x24\nwait 200ms\nkey enter\nwait 3s\nkey t\nwait 4500ms\nkey t\nwait 300ms\nsnapshot\n")
        #expect(replayed.map(\.time) == ["t=8.000"])
        #expect(replayed.map(\.screen) == direct.map(\.screen))
        #expect(line(replayed[0].screen, containing: "Timer in default").contains("Resend"))
    }

    @Test("A recording that cannot be created is a clear error")
    func unwritableRecordingIsAnError() {
        #expect(throws: TraceFileError.self) { try SessionRecorder(path: "/nonexistent-directory/session.txt") }
    }
}
