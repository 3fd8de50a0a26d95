import Testing

@testable import TimerDeck

@Suite("Time controls: pause, step, slow motion, simulated sleep and wall jumps, headless (G3)")
struct TimeControlScenarioTests {
    /// The fire-log lines of `screen` for `timer`.
    private func fires(_ screen: String, of timer: String) -> [String] {
        screen.split(separator: "\n").map(String.init).filter { $0.contains("s   \(timer) ") }
    }

    @Test("> at 1× and < at ⅒× say the limit in the status bar; a change that happens says nothing")
    func rateLimitsAreSaid() throws {
        let snapshots = try runHeadless(
            """
            key >
            snapshot
            key <
            snapshot
            key <
            key <
            snapshot
            """)
        try #require(snapshots.count == 3)
        #expect(snapshots[0].screen.contains("already at 1×: time runs no faster than real time"))
        #expect(!snapshots[1].screen.contains("already at"), "1× to ¼× changed the rate")
        #expect(snapshots[1].screen.contains("¼×"))
        #expect(snapshots[2].screen.contains("already at ⅒×, the slowest rate"))
    }

    @Test("Pause, then step, step: each step lands on the next deadline and that fire happens; space resumes")
    func pauseAndStep() throws {
        // The ticker is stopped (Tab to the ripple, s) so that the SMS timer holds the next deadlines.
        let snapshots = try runHeadless(
            """
            key tab
            key s
            key shift-tab
            key enter
            key space
            wait 10s
            snapshot
            key .
            snapshot
            key .
            snapshot
            key space
            wait 2s
            snapshot
            """)
        try #require(snapshots.count == 4)
        #expect(snapshots[0].screen.contains("⏸ paused"))
        #expect(fires(snapshots[0].screen, of: "sms-default").isEmpty, "10 s paused: nothing fired")
        #expect(fires(snapshots[1].screen, of: "sms-default").map { String($0.prefix(10)) } == ["│ 1.000s  "])
        #expect(snapshots[1].screen.contains("[ Resend (59) ]"))
        #expect(fires(snapshots[2].screen, of: "sms-default").count == 2)
        #expect(snapshots[2].screen.contains("│ 2.000s   sms-default default  0µs    1"))
        #expect(!snapshots[3].screen.contains("⏸ paused"))
        #expect(snapshots[3].screen.contains("│ 4.000s   sms-default default  0µs    1"), "resumed where it stood")
        #expect(snapshots[3].time == "t=12.000")
    }

    @Test("Slow motion: at ¼× a 1 s timer fires every 4 s of script time, with no lateness")
    func quarterSpeed() throws {
        let snapshots = try runHeadless("key <\nkey enter\nwait 8s\nsnapshot\nkey >\nwait 1s\nsnapshot\n")
        try #require(snapshots.count == 2)
        #expect(snapshots[0].screen.contains("common: [default, tracking]  ¼×"))
        #expect(fires(snapshots[0].screen, of: "sms-default").count == 2)
        #expect(snapshots[0].screen.contains("│ 2.000s   sms-default default  0µs    1"))
        #expect(snapshots[0].screen.contains("[ Resend (58) ]"))
        #expect(!snapshots[1].screen.contains("¼×"))
        #expect(snapshots[1].screen.contains("│ 3.000s   sms-default default  0µs    1"), "back to 1×")
    }

    @Test("G3: a 30 s simulated sleep moves the continuous-clock GCD countdown 30 s and the uptime one not at all")
    func simulatedSleep() throws {
        let snapshots = try runHeadless(
            "key enter\nkey down\nkey down\nkey enter\nwait 5s\nsnapshot\nkey z\nwait 1s\nsnapshot\n")
        try #require(snapshots.count == 2)
        #expect(line(snapshots[0].screen, containing: "Timer in default").contains("Resend (55)"))
        #expect(line(snapshots[0].screen, containing: "GCD in any mode").contains("Resend (55)"))
        #expect(line(snapshots[1].screen, containing: "Timer in default").contains("Resend (54)"))
        #expect(line(snapshots[1].screen, containing: "GCD in any mode").contains("Resend (24)"))
        #expect(snapshots[1].screen.contains("slept 30.0s: continuous and wall clocks moved on, uptime did not (G3)"))
    }

    @Test("The simulated sleep's length comes from [time] sleep")
    func configuredSleep() throws {
        let config = try Config.parse("[time]\nsleep = \"10s\"\n")
        let snapshots = try runHeadless(
            "key down\nkey down\nkey enter\nwait 1s\nkey z\nwait 1s\nsnapshot\n", config: config)
        #expect(line(snapshots[0].screen, containing: "GCD in any mode").contains("Resend (48)"))
    }

    @Test("A wall jump (e: +1 h) fires a wall-clock dispatch timer due in an hour; a continuous one stays")
    func wallJump() throws {
        let config = try Config.parse(
            ["wall", "continuous"].map {
                "[[timers]]\nname = \"\($0.prefix(4))-1h\"\nmechanism = \"dispatch\"\nclock = \"\($0)\"\ninterval = \"1h\"\n"
                    + "repeats = false\nstart = true\n"
            }.joined(separator: "\n"))
        let snapshots = try runHeadless(
            "size 120x40\nkey e\nwait 1s\nsnapshot\nkey w\nkey w\nwait 1s\nsnapshot\n", config: config)
        try #require(snapshots.count == 2)
        #expect(fires(snapshots[0].screen, of: "wall-1h").count == 1)
        #expect(fires(snapshots[0].screen, of: "cont-1h").isEmpty)
        #expect(snapshots[0].screen.contains("wall clock +1h: only wall-clock dispatch timers move"))
        #expect(line(snapshots[1].screen, containing: "cont-1h     DispatchTimer").contains("running"))
        #expect(snapshots[1].screen.contains("wall clock −1h"))
    }
}
