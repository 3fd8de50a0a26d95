import Foundation
import RunLoopKit
import TestSupport
import Testing

@testable import TimerDeck

/// `notify = true`: a desktop notification naming the timer, through notify-send when present.
@Suite("Desktop notifications")
struct NotifyTests {
    /// A one-shot 3 s timer "tea" with `notify = true`, run on a virtual clock with `program` as notify-send.
    @available(*, noasync)
    func runTea(program: String) throws -> DashboardDriver {
        try runOneShotTea(actions: "notify = true") { $0.notifyProgram = program }
    }

    @Test("notify = true is read, and its fire asks for a notification titled with the timer's name")
    func stateAsksForNotification() throws {
        let config = try Config.parse("[[timers]]\nname = \"tea\"\ninterval = \"1s\"\nnotify = true")
        #expect(config.timers[0].actions.notify)
        var state = DashboardState(scene: .standard(config, uploadsLabel: nil), size: DashboardLayout.minimumSize)
        let effects = state.apply(
            .fired(
                RowID(number: 0),
                .scheduled(at: Instant(nanoseconds: 1_000_000_000))))
        #expect(
            effects.contains(
                .notify(
                    RowID(number: 0),
                    DesktopNotification(title: "tea", body: "tea fired at 1.000s (runloop, default)"))))
    }

    @Test("The notifier is given the timer's name and what happened")
    @available(*, noasync)
    func notifierGetsTheName() throws {
        let scratch = try ScratchDirectory()
        let record = scratch.path("args").path
        let program = try scratch.write("#!/bin/sh\nprintf '%s|' \"$@\" > '\(record)'\n", to: "notify-send")
        chmod(program, 0o755)
        let driver = try runTea(program: program)
        let arguments = try String(contentsOfFile: record, encoding: .utf8)
        #expect(arguments == "--app-name=timerdeck|--|tea|tea ended at 3.000s (dispatch, default)|")
        #expect(driver.state.hint == nil)
    }

    @Test("Without notify-send, the status bar says so in one line")
    @available(*, noasync)
    func missingNotifierIsSaid() throws {
        let driver = try runTea(program: "/nonexistent/notify-send")
        #expect(
            driver.state.hint
                == "no desktop notifications — notify-send is not installed (Debian/Ubuntu: apt-get install libnotify-bin)"
        )
    }
}
