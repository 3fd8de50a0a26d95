import Testing

@testable import TimerDeck

@Suite("The timeline view (4): the last minute, one lane per timer (M2, C-T6)")
struct TimelineViewTests {
    @Test(
        "M2/C-T6: fires are marks at their time's column; a late fire after tracking is marked and tracking columns shaded"
    )
    func timelineShowsFiresLatenessAndTracking() throws {
        // sms-default and sms-common start; the loop is held in the tracking mode from 3 s to 6.5 s.
        let snapshots = try runHeadless(
            """
            key enter
            key down
            key enter
            wait 3s
            key t
            wait 3500ms
            key t
            wait 500ms
            key 4
            snapshot
            key 1
            snapshot
            """)
        let timeline = snapshots[0].screen
        #expect(timeline.contains("Timeline: the last 1m"))
        let lanes = timeline.split(separator: "\n").map(String.init)
        let smsDefault = try #require(lanes.first { $0.contains("sms-default") })
        let smsCommon = try #require(lanes.first { $0.contains("sms-common") })
        // 66 columns of 60 s / 66 (about 0.9 s) up to 7 s, then the box's border. sms-default: on time
        // at 1, 2, 3 s; nothing while tracking (shaded); at 6.5 s once, late, for the ticks of 4, 5 and
        // 6 s, in the last column with the 7 s fire (█ wins).
        #expect(smsDefault.hasSuffix("│││░░░█│"))
        // sms-common: every second, also in the tracking mode.
        #expect(smsCommon.hasSuffix(" ││││││││"))
        // The uploader (every 5 min) never fired: its lane has no band, as the band says where fires ran.
        let uploader = try #require(lanes.first { $0.contains("│uploader ") })
        #expect(!uploader.contains("░"))
        // The last line inside the box says what the marks mean.
        #expect(
            lanes[lanes.count - 3] == "│key: │ on time  ▌ late  █ skipped ticks  ░ a fire ran outside the default mode│"
        )
        #expect(!snapshots[1].screen.contains("Timeline"))
        #expect(snapshots[1].screen.contains("SMS resend"))
    }
}
