import Testing

@testable import TimerDeck

/// The scenes the README and `Docs/Manual.md` show, as whole screens at 80×24 and 120×40, compared
/// cell for cell with the committed files in Snapshots/ (see ``GoldenScreen`` for how to update them).
@Suite("Golden snapshots of the documented scenes")
struct SnapshotTests {
    static let sizes = ["80x24", "120x40"]

    /// Runs `script` at `size` and checks its one snapshot against `Snapshots/<name>-<size>.txt`.
    @available(*, noasync)
    func check(
        _ name: String, _ script: String, config: Config = Config(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for size in Self.sizes {
            let snapshots = try runHeadless("size \(size)\n" + script, config: config)
            try #require(snapshots.count == 1, sourceLocation: sourceLocation)
            GoldenScreen.check(snapshots[0].screen, named: "\(name)-\(size)", sourceLocation: sourceLocation)
        }
    }

    @Test("S1: one second after pressing Send")
    func sendPressed() throws {
        try check("send-1s", "key enter\nwait 1s\nsnapshot\n")
    }

    @Test("M2/M4: all three buttons pressed, the loop held in tracking since 3 s (the README's first screen)")
    func trackingHeld() throws {
        try check(
            "tracking-held",
            "key enter\nkey down\nkey enter\nkey down\nkey enter\nwait 3s\nkey t\nwait 4500ms\nsnapshot\n")
    }

    @Test("M2/C-X2: scrolling the fire log back, inside the gesture's tracking run; a default-mode task row waits")
    func scrollingTheLog() throws {
        var config = Config()
        var nap = TimerDefinition()
        nap.name = "nap"
        nap.kind = .task
        config.timers = TimerDefinition.standardScene + [nap]
        try check(
            "scrolling",
            "key enter\nkey down\nkey enter\nwait 12s\ntab\ntab\ntab\nkey pgup\nwait 100ms\nsnapshot\n"
                .replacingOccurrences(of: "\ntab", with: "\nkey tab"), config: config)
    }

    @Test("The help overlay over the running dashboard")
    func helpOverlay() throws {
        try check("help", "key enter\nwait 2s\nkey ?\nwait 500ms\nsnapshot\n")
    }

    @Test("A full title bar keeps the pause and the slow motion; the common modes give way")
    func pausedAndSlowTitle() throws {
        try check("paused-slow", "key C\nkey t\nkey <\nkey space\nwait 1s\nsnapshot\n")
    }

    @Test("The help opened from the add-timer form holds the form's error in full")
    func helpOverAddForm() throws {
        try check("help-add-form", "key a\nkey t\nkey e\nkey a\nkey space\nkey 0\nkey s\nkey ?\nsnapshot\n")
    }

    @Test("M2: the timeline page with its legend, the loop held in tracking from 3 s to 6.5 s")
    func timeline() throws {
        try check(
            "timeline",
            "key enter\nkey down\nkey enter\nwait 3s\nkey t\nwait 3500ms\nkey t\nwait 500ms\nkey 4\nsnapshot\n")
    }

    @Test("M2: the focus view (5) of the default-mode button, paused by a tracking run that t holds")
    func bigDigits() throws {
        try check("big-digits", "key enter\nwait 3s\nkey 5\nkey t\nwait 2s\nsnapshot\n")
    }

    @Test("S2: the first 5-minute upload delivered")
    func uploadDelivered() throws {
        try check("uploads-5m", "wait 300s\nsnapshot\n")
    }

    @Test("D3: the ticker with the slow load skips frames")
    func slowTicker() throws {
        try check("slow-ticker", "key l\nwait 2s\nsnapshot\n")
    }

    @Test("L1–L3: the lifetime lab 3 s after one screen of every strategy was opened and closed")
    func lifetimeLab() throws {
        let openAndClose = String(repeating: "key o\nkey c\nkey down\n", count: LabStrategy.allCases.count)
        try check("lifetime-lab", "key 2\n" + openAndClose + "key up\nkey o\nwait 3s\nsnapshot\n")
    }

    @Test("C-M5: the dashboard while \"modal\" runs, made common at 3 s")
    func modalMadeCommon() throws {
        try check("modal-common", "key down\nkey enter\nkey M\nwait 3s\nkey C\nwait 2s\nsnapshot\n")
    }

    @Test("C-R1/C-M5: the phases page at 7 s, \"modal\" run from 0 s and made common at 3 s")
    func phasesOfModal() throws {
        try check(
            "modal-phases", "key down\nkey enter\nkey M\nwait 3s\nkey C\nwait 2s\nkey 3\nwait 2s\nsnapshot\n")
    }

    @Test("G3: both countdowns pressed, 5 s later a 30 s simulated sleep (z), one second after it")
    func simulatedSleep() throws {
        try check("time-sleep", "key enter\nkey down\nkey down\nkey enter\nwait 5s\nkey z\nwait 1s\nsnapshot\n")
    }

    @Test("The comparer names the first differing cell")
    func comparerNamesTheCell() {
        #expect(GoldenScreen.firstDifference(expected: "abc\ndef", actual: "abc\ndef") == nil)
        let difference = GoldenScreen.firstDifference(expected: "abc\ndef", actual: "abc\ndxf")
        #expect(difference?.hasPrefix("row 2, column 2 differs") == true)
        #expect(GoldenScreen.firstDifference(expected: "abc", actual: "abc\n") != nil, "an extra row is a difference")
    }
}
