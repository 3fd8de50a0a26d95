import Testing

@testable import TimerDeck

/// Script lines typing `text` one key at a time (no line end after the last).
func typing(_ text: String) -> String {
    text.map { $0 == " " ? "key space" : "key \($0)" }.joined(separator: "\n")
}

/// Runs a headless script and returns its snapshots by time ("t=1.000" → screen text).
@available(*, noasync)
func runHeadless(_ script: String, config: Config = Config()) throws -> [(time: String, screen: String)] {
    var lines: [String] = []
    let uploads =
        config.hasUploads ? try UploadsSetup(config: config, outboxPath: nil, uploadURL: nil, headless: true) : nil
    let session = try HeadlessSession(config: config, uploads: uploads, script: HeadlessScript(parsing: script)) {
        lines.append($0)
    }
    session.run()
    var snapshots: [(String, String)] = []
    var index = 0
    while index < lines.count {
        let header = lines[index]
        if header.hasPrefix("--- snapshot t=") {
            let time = String(header.dropFirst("--- snapshot ".count).dropLast(" ---".count))
            snapshots.append((time, lines[index + 1]))
            index += 2
        } else {
            index += 1
        }
    }
    return snapshots
}

/// The line of `screen` that contains `marker`.
func line(_ screen: String, containing marker: String) -> String {
    screen.split(separator: "\n").first { $0.contains(marker) }.map(String.init) ?? ""
}

@Suite("Headless scenarios (S1, S2, M2, M4)")
struct HeadlessScenarioTests {
    @Test("S1: the default-mode button reads Resend (60) at the press, (59) at 1 s, (01) at 59 s, Send at 60 s")
    func smsCountdownLabels() throws {
        let snapshots = try runHeadless(
            """
            key enter
            snapshot
            wait 1s
            snapshot
            wait 58s
            snapshot
            wait 1s
            snapshot
            """)
        #expect(snapshots.map(\.time) == ["t=0.000", "t=1.000", "t=59.000", "t=60.000"])
        let labels = snapshots.map { line($0.screen, containing: "Timer in default") }
        #expect(labels[0].contains("[ Resend (60) ]"))
        #expect(labels[1].contains("[ Resend (59) ]"))
        #expect(labels[2].contains("[ Resend (01) ]"))
        #expect(labels[3].contains("[ Send        ]"))
    }

    @Test("S1: pressing again while counting is ignored, with a hint")
    func pressWhileCountingIsIgnored() throws {
        let snapshots = try runHeadless(
            """
            key enter
            wait 2s
            key enter
            snapshot
            """)
        let screen = snapshots[0].screen
        #expect(line(screen, containing: "Timer in default").contains("Resend (58)"))
        #expect(screen.contains("the press is ignored (S1)"))
    }

    @Test(
        "M2: while the log is scrolled, the default-mode row pauses and the common-mode row keeps counting; one late fire on return"
    )
    func trackingPausesDefaultRow() throws {
        // Start both rows, then hold the tracking mode from 10.5 s to 20.5 s with `t`.
        let snapshots = try runHeadless(
            """
            key enter
            key down
            key enter
            wait 10500ms
            key t
            wait 5s
            snapshot
            wait 5s
            key t
            wait 100ms
            snapshot
            wait 400ms
            snapshot
            """)
        let during = snapshots[0].screen
        #expect(line(during, containing: "TimerDeck").contains("mode: tracking  depth: 2"))
        #expect(line(during, containing: "Timer in default").contains("Resend (50)"))
        #expect(line(during, containing: "Timer in default").contains("waiting"))
        #expect(line(during, containing: "Timer in common").contains("Resend (45)"))
        let justAfter = snapshots[1].screen
        #expect(line(justAfter, containing: "TimerDeck").contains("mode: default  depth: 1"))
        // One late fire at 20.5 s (50 → 49), then the grid: 21 s → 48. No catch-up burst.
        #expect(line(justAfter, containing: "Timer in default").contains("Resend (49)"))
        #expect(line(justAfter, containing: "Timer in common").contains("Resend (40)"))
        #expect(line(snapshots[2].screen, containing: "Timer in default").contains("Resend (48)"))
        // Scheduled for 11 s, fired at 20.5 s: 9.5 s late, the 9 ticks of 12…20 s skipped (C-T6).
        #expect(line(justAfter, containing: "sms-default").contains("9.5s   9"))
    }

    @Test("G1/S1: the dispatch-timer row counts from its deadline and keeps going while tracking")
    func dispatchRowKeepsGoing() throws {
        let snapshots = try runHeadless(
            """
            key down
            key down
            key enter
            snapshot
            wait 2s
            key t
            wait 5s
            snapshot
            """)
        #expect(line(snapshots[0].screen, containing: "GCD in any mode").contains("Resend (60)"))
        #expect(line(snapshots[1].screen, containing: "GCD in any mode").contains("Resend (53)"))
        #expect(line(snapshots[1].screen, containing: "sms-gcd").contains("running"))
        #expect(snapshots[1].screen.contains("sms-gcd     tracking"))
    }

    @Test("M2/decision 7: scrolling the log enters tracking and the gesture ends after the quiet period")
    func scrollGestureEndsAfterQuietPeriod() throws {
        let snapshots = try runHeadless(
            """
            key enter
            wait 2s
            key k
            wait 100ms
            snapshot
            key j
            wait 200ms
            snapshot
            wait 300ms
            snapshot
            """)
        #expect(line(snapshots[0].screen, containing: "TimerDeck").contains("mode: tracking"))
        #expect(line(snapshots[1].screen, containing: "TimerDeck").contains("mode: tracking"), "j extended the gesture")
        #expect(line(snapshots[2].screen, containing: "TimerDeck").contains("mode: default"))
    }

    @Test("M4: the ticker's display link stays in the default mode and pauses while tracking")
    func tickerPausesWhileTracking() throws {
        let snapshots = try runHeadless(
            """
            wait 1s
            key t
            wait 1s
            snapshot
            key t
            wait 500ms
            snapshot
            """)
        #expect(line(snapshots[0].screen, containing: "ticker").contains("waiting for mode"))
        #expect(line(snapshots[0].screen, containing: "fps").contains("waiting"))
        #expect(line(snapshots[1].screen, containing: "ticker").contains("running"))
        // C-D1: tracking ends exactly on a vsync (2 s), which the link calls back at: 59 frames skipped, not 60.
        #expect(line(snapshots[1].screen, containing: "fps").contains("skipped 59"))
    }

    @Test("S2 in the uploads panel: every committed sample counted once, the 5-minute batch carries 60")
    func uploadPanelCountsSamples() throws {
        let snapshots = try runHeadless(
            """
            wait 30s
            snapshot
            wait 270s
            snapshot
            """)
        #expect(line(snapshots[0].screen, containing: "pending").contains("pending 6 · last #6 just now"))
        #expect(snapshots[0].screen.contains("no upload yet"))
        #expect(line(snapshots[1].screen, containing: "pending").contains("pending 0 · last #60 just now"))
        #expect(line(snapshots[1].screen, containing: "sent").contains("sent 60"))
        #expect(line(snapshots[1].screen, containing: "delivered").contains("delivered 60"))
    }

    @Test("Keys move a timer between modes live: m cycles default → tracking → modal → common → default")
    func moveModeCycles() throws {
        let snapshots = try runHeadless(Array(repeating: "key m\nsnapshot", count: 4).joined(separator: "\n"))
        // The modes column of the inspector and the SMS row, not the row's name (which holds "default").
        let modes = snapshots.map {
            line($0.screen, containing: "sms-default RunLoop").split(separator: " ").dropFirst(5).first.map(String.init)
        }
        let expected = ["tracking", "modal", "common", "default"]
        #expect(modes == expected)
        for (snapshot, mode) in zip(snapshots, expected) {
            #expect(line(snapshot.screen, containing: "] Timer in").contains("Timer in \(mode)"))
        }
    }

    @Test("Home in the fire log shows a full page of the oldest entries; past 1000 s the time keeps its unit")
    func homeShowsAFullOldestPage() throws {
        let snapshots = try runHeadless(
            """
            key enter
            key down
            key enter
            wait 1004s
            key tab
            key tab
            key tab
            key home
            wait 100ms
            snapshot
            wait 1s
            key end
            wait 100ms
            snapshot
            """)
        let oldest = snapshots[0].screen.split(separator: "\n").filter {
            $0.contains("s   sms-") || $0.contains("s   sampler")
        }
        #expect(oldest.count == 4, "a full page at 80×24, not one entry")
        #expect(oldest.first?.contains("│ 1.000s   sms-default") == true)
        #expect(snapshots[1].screen.contains("│ 1005.00s sampler     "))
    }

    @Test("x on the SMS and GCD rows puts the button back to Send, and Enter starts a new countdown (S1)")
    func invalidateThenPress() throws {
        let snapshots = try runHeadless(
            """
            key enter
            key down
            key down
            key enter
            wait 2s
            key x
            key up
            key up
            key x
            snapshot
            key enter
            key down
            key down
            key enter
            wait 1s
            snapshot
            """)
        #expect(
            line(snapshots[0].screen, containing: "Timer in default").contains(
                "[ Send        ] Timer in default invalid"))
        #expect(
            line(snapshots[0].screen, containing: "GCD in any mode").contains("[ Send        ] GCD in any mode invalid")
        )
        #expect(!snapshots[0].screen.contains("counting"))
        #expect(line(snapshots[1].screen, containing: "Timer in default").contains("Resend (59)"))
        #expect(line(snapshots[1].screen, containing: "GCD in any mode").contains("Resend (59)"))
    }

    @Test("Keys do not reach the timers behind the help overlay; after Esc they do")
    func helpOverlayHoldsKeys() throws {
        let snapshots = try runHeadless(
            """
            key ?
            key enter
            key t
            wait 1s
            snapshot
            key esc
            key enter
            wait 1s
            snapshot
            """)
        #expect(snapshots[0].screen.contains("Keys (↓ more, ? or Esc to close)"))
        #expect(
            line(snapshots[0].screen, containing: "TimerDeck").contains("mode: default  depth: 1"),
            "t did not start tracking")
        #expect(snapshots[0].screen.contains("the help is open: ? or Esc closes it, q quits"))
        #expect(!snapshots[1].screen.contains("Keys ("))
        // Pressed only after Esc, one second before: the Enter behind the overlay did nothing.
        #expect(line(snapshots[1].screen, containing: "Timer in default").contains("Resend (59)"))
    }

    @Test("The same script gives the same output every time")
    func deterministic() throws {
        let script = "key enter\nwait 3s\nkey k\nwait 120ms\nsnapshot\nwait 2s\nsnapshot\n"
        let first = try runHeadless(script)
        let second = try runHeadless(script)
        #expect(first.map(\.screen) == second.map(\.screen))
    }

    @Test("A terminal below the minimum size shows how big it must be")
    func tooSmall() throws {
        let snapshots = try runHeadless("size 60x20\nsnapshot\nsize 80x24\nsnapshot\n")
        #expect(snapshots[0].screen.contains("enlarge the terminal to at least 80×24"))
        #expect(snapshots[1].screen.contains("SMS resend"))
    }

    @Test("Unknown keys leave a hint; unknown key names in a script are rejected up front")
    func unknownKeys() throws {
        let snapshots = try runHeadless("key y\nsnapshot\n")
        #expect(snapshots[0].screen.contains("key y does nothing here"))
        #expect {
            try runHeadless("key nosuchkey\n")
        } throws: {
            "\($0)".contains("nosuchkey")
        }
    }

    @Test("The help overlay scrolls with PgDn and ↑ when the keys do not fit; other keys still do nothing")
    func helpScrolls() throws {
        let snapshots = try runHeadless("key ?\nsnapshot\nkey pgdn\nkey x\nsnapshot\nkey up\nsnapshot\n")
        try #require(snapshots.count == 3)
        #expect(snapshots[0].screen.contains("Keys (↓ more, ? or Esc to close)"))
        #expect(!snapshots[0].screen.contains("this help"))
        #expect(snapshots[1].screen.contains("Keys (↑ more, ? or Esc to close)"))
        #expect(snapshots[1].screen.contains("? Esc             this help; close it"))
        #expect(snapshots[1].screen.contains("the help is open: ? or Esc closes it, q quits"))
        #expect(!snapshots[1].screen.contains("sms-default RunLoop Timer 1s default  invalid"))
        #expect(snapshots[2].screen.contains("Keys (↑↓ more, ? or Esc to close)"))
    }
}
